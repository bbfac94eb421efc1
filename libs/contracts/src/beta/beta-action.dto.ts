import { ApiProperty } from '@nestjs/swagger';
import { combinePropertyDecorators } from '../validation/field.decorator';
import { ValidateRule } from '../validation/rule.decorator';
import {
  BooleanField,
  EnumField,
  IntegerField,
  NumberField,
  StringField,
} from '../validation/scalar-field.decorator';
import { STORED_FIELD_LIMITS } from '../validation/stored-field-limits.constants';
import type { StoredFieldsShape } from '../validation/stored-fields.check';
import { checkHttpUrl, checkList, checkString } from '../validation/value-checks.util';

/** The beta image wire's bounds (upstreams.md §4.3, §4.7). */
export const BETA_ACTION_LIMITS = {
  promptCharacters: 800,
  referenceImages: 10,
  minArea: 1024 * 1024,
  maxArea: 4096 * 4096,
} as const;

export const BETA_RESOLUTIONS = ['1k', '2k', '4k'] as const;

function ReferenceListField(description: string, checkItem: (value: unknown) => string | undefined) {
  return combinePropertyDecorators(
    ApiProperty({
      description,
      required: false,
      type: String,
      isArray: true,
      maxItems: BETA_ACTION_LIMITS.referenceImages,
    }),
    ValidateRule('referenceList', (value) =>
      value === undefined
        ? undefined
        : checkList(value, checkItem, { maxItems: BETA_ACTION_LIMITS.referenceImages }),
    ),
  );
}

/**
 * Body of `POST /bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31`: the beta family's own submission
 * (upstreams.md §4.3). Fields the gateway does not name pass through to the upstream unchanged.
 */
export class BetaSubmitTaskDto {
  @StringField({
    description:
      'Selects model and mode: `beta_t2i_v40` (beta-4.0), `beta_t2i_v45` (beta-4.5); video (upstreams §4.3): `beta_t2v_v30`, `beta_i2v_first_v30`, `beta_i2v_first_tail_v30` and their `_1080p`/`_1080` keys (beta-video-3.0), `beta_vgfm_t2v_l20`, `beta_vgfm_i2v_l20` (beta-video-2.0).',
    nonEmpty: true,
    maxLength: 64,
  })
  req_key: string;

  @StringField({
    description: 'What to draw; required without reference images.',
    optional: true,
    maxLength: BETA_ACTION_LIMITS.promptCharacters,
    storable: true,
  })
  prompt?: string;

  @ReferenceListField(
    'Reference images as http(s) URLs (0–10); never together with binary_data_base64.',
    checkHttpUrl,
  )
  image_urls?: string[];

  @ReferenceListField(
    'Reference images as bare Base64 (no `data:` prefix); never together with image_urls.',
    (value) => checkString(value, { nonEmpty: true }),
  )
  binary_data_base64?: string[];

  @IntegerField({
    description: 'Output pixel area, 1048576 (1024²) to 16777216 (4096²); default 4194304 (2048²).',
    optional: true,
    min: BETA_ACTION_LIMITS.minArea,
    max: BETA_ACTION_LIMITS.maxArea,
  })
  size?: number;

  @IntegerField({
    description: 'Output width in pixels; with height, instead of size.',
    optional: true,
    min: 1,
  })
  width?: number;

  @IntegerField({
    description: 'Output height in pixels; with width, instead of size.',
    optional: true,
    min: 1,
  })
  height?: number;

  @EnumField(BETA_RESOLUTIONS, {
    description: 'Output tier instead of size: 1k, 2k or 4k (1024², 2048², 4096² pixels).',
    optional: true,
  })
  resolution?: string;

  @NumberField({ description: 'Prompt influence, 0–1 (default 0.5).', optional: true, min: 0, max: 1 })
  scale?: number;

  @IntegerField({ description: 'Random seed; -1 (default) picks one.', optional: true })
  seed?: number;

  @BooleanField({ description: 'true: exactly one output image.', optional: true })
  force_single?: boolean;

  @IntegerField({
    description: 'Video: `24 × seconds + 1` (121 for 5 s, the default; 241 for 10 s).',
    optional: true,
    min: 1,
  })
  frames?: number;

  @StringField({
    description:
      'Video, text modes: `16:9` (default), `4:3`, `1:1`, `3:4`, `9:16`, `21:9`; image modes follow the first frame.',
    optional: true,
    maxLength: 16,
  })
  aspect_ratio?: string;

  @StringField({
    description: `Gateway extension: the \`req_json\` options (a JSON-encoded object: \`logo_info\`, \`aigc_meta\`) every result of this task is fetched with; at most ${STORED_FIELD_LIMITS.passThroughBytes} bytes as JSON.`,
    optional: true,
  })
  req_json?: string;
}

/**
 * What a submission keeps on its task row besides the fields the DTO bounds: `req_json`, and the
 * fields it does not name, which pass to the upstream as sent (STORED_FIELD_LIMITS).
 */
export const BETA_SUBMIT_STORED_FIELDS: StoredFieldsShape = Object.freeze({
  named: new Set([
    'req_key',
    'prompt',
    'image_urls',
    'binary_data_base64',
    'size',
    'width',
    'height',
    'resolution',
    'scale',
    'seed',
    'force_single',
    'frames',
    'aspect_ratio',
    'req_json',
  ]),
  passThrough: ['req_json'],
});

/** Body of `POST /bt?Action=CVSync2AsyncGetResult&Version=2022-08-31` (upstreams.md §4.4). */
export class BetaGetResultDto {
  @StringField({ description: 'The req_key the task was submitted with.', nonEmpty: true })
  req_key: string;

  @StringField({ description: 'The task id the submission answered with.', nonEmpty: true })
  task_id: string;

  @StringField({
    description: 'A JSON-encoded object; `return_url: true` adds `image_urls` to the answer.',
    optional: true,
  })
  req_json?: string;
}
