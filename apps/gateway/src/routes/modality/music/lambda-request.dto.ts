import { ApiProperty } from '@nestjs/swagger';
import {
  BooleanField,
  checkList,
  checkString,
  combinePropertyDecorators,
  NumberField,
  STORED_FIELD_LIMITS,
  StringField,
  ValidateRule,
} from '@gateway/contracts';
import { LAMBDA_DEFAULT_MODEL } from '@gateway/dialects';

const { promptLength, labelLength, identifierLength } = STORED_FIELD_LIMITS;
const IDENTIFIER = { optional: true, nonEmpty: true, maxLength: identifierLength } as const;

/** At most this many ids in one `POST /lambda/fetch` (the gateway's bound; §9 states none). */
export const MAX_FETCH_IDS = 100;

/**
 * Body of `POST /lambda/submit/{action}` (upstreams.md §9.3). The fields are checked in this order, and
 * a refusal names the first at fault; fields not named here pass to the upstream as sent.
 */
export class LambdaSubmitRequestDto {
  @StringField({
    description:
      'The lyrics (custom mode); for `lyrics`, the idea to write about, and required. Music needs it or `description_prompt`.',
    optional: true,
    maxLength: promptLength,
  })
  prompt?: string;

  @StringField({
    description: 'A free description, for music without custom lyrics.',
    optional: true,
    maxLength: promptLength,
  })
  description_prompt?: string;

  @StringField({ description: 'The song title.', optional: true, maxLength: labelLength })
  title?: string;

  @StringField({ description: 'Comma-separated style tags.', optional: true, maxLength: labelLength })
  tags?: string;

  @StringField({
    description: `The model: \`${LAMBDA_DEFAULT_MODEL}\` (default), \`lambda-v3-5\`, \`lambda-v4\`, \`lambda-v4-5\`, \`lambda-v5\`.`,
    default: LAMBDA_DEFAULT_MODEL,
    ...IDENTIFIER,
  })
  mv?: string;

  @BooleanField({ description: 'true: no vocals.', optional: true })
  make_instrumental?: boolean;

  @StringField({
    description: 'Music only: the clip to continue, with `continue_at` and `task_id`.',
    ...IDENTIFIER,
  })
  continue_clip_id?: string;

  @NumberField({
    description: 'Where the continuation starts in the clip, in seconds.',
    optional: true,
    min: 0,
  })
  continue_at?: number;

  @StringField({
    description: 'When continuing: the id of your completed task that made the clip.',
    ...IDENTIFIER,
  })
  task_id?: string;
}

/** The fields LambdaSubmitRequestDto names; the others are bounded as fields passed through. */
export const LAMBDA_SUBMIT_FIELDS: ReadonlySet<string> = new Set([
  'prompt',
  'description_prompt',
  'title',
  'tags',
  'mv',
  'make_instrumental',
  'continue_clip_id',
  'continue_at',
  'task_id',
]);

/** Body of `POST /lambda/fetch` (upstreams.md §9.2). */
export class LambdaFetchRequestDto {
  @combinePropertyDecorators(
    ApiProperty({
      description: 'Ids of your music tasks; ids that are not yours are left out of the answer.',
      type: String,
      isArray: true,
      maxItems: MAX_FETCH_IDS,
    }),
    ValidateRule('idList', (value) => checkList(value, (id) => checkString(id), { maxItems: MAX_FETCH_IDS })),
  )
  ids: string[];
}
