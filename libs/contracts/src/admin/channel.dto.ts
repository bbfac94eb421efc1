import { JsonObjectField, NestedListField } from '../validation/nested-field.decorator';
import { ValidateObjectRule } from '../validation/rule.decorator';
import { OPTIONAL_OR_NULL } from '../validation/field.decorator';
import {
  EnumField,
  HttpUrlField,
  IntegerField,
  NumberField,
  StringField,
} from '../validation/scalar-field.decorator';
import {
  CHANNEL_STATUSES,
  ChannelStatus,
  DEFAULT_CHANNEL_WEIGHT,
  INT32_BOUNDS,
  NAME_RULES,
} from './admin-values.constants';
import { checkUniqueEntries } from './unique-entries.check';

const SECRET_RULES = { nonEmpty: true, maxLength: 4096 } as const;

/**
 * A channel's ceiling on task polls per second, across every worker: from one poll per 100 s (a
 * slow control plane) to far more than one worker makes.
 */
const POLLS_PER_SECOND_BOUNDS = { min: 0.01, max: 10_000 } as const;
const POLLS_PER_SECOND_DESCRIPTION =
  "Ceiling on this channel's task polls per second, shared by every worker: polls over it wait for their turn instead of meeting the upstream's rate limit. Null or absent: no ceiling.";

/** A model a channel offers, optionally under another id upstream. */
export class ChannelModelDto {
  @StringField({ description: 'Public model name.', example: 'kappa-2.0-flash', ...NAME_RULES })
  model: string;

  @StringField({ description: 'Model id sent upstream, when it differs.', optional: true, ...NAME_RULES })
  upstreamModel?: string;
}

const uniqueModels = (channel: Record<string, unknown>) =>
  checkUniqueEntries('models', 'model', channel['models']);

@ValidateObjectRule('uniqueChannelModels', uniqueModels)
export class CreateChannelDto {
  @StringField({ description: 'Channel type (wire protocol), e.g. kappa or compat.', ...NAME_RULES })
  type: string;

  @StringField({ description: 'Unique channel name.', ...NAME_RULES })
  name: string;

  @HttpUrlField({ description: 'Base URL of the upstream.', example: 'http://upstream-sim:4010/kappa' })
  baseUrl: string;

  @StringField({
    description:
      "Upstream credential in its channel type's form (a plain key, `AccessKey|SecretKey` …); write-only, stored encrypted.",
    ...SECRET_RULES,
  })
  secret: string;

  @JsonObjectField({
    description:
      "Per-channel settings, checked against the channel type's settings schema; its secret settings (a control-plane key …) are stored encrypted and shown masked.",
    optional: true,
    default: {},
  })
  settings: Record<string, unknown> = {};

  @NestedListField(() => ChannelModelDto, { description: 'Models the channel offers.', minItems: 1 })
  models: ChannelModelDto[];

  @IntegerField({
    description: 'Higher priority is tried first.',
    optional: true,
    default: 0,
    ...INT32_BOUNDS,
  })
  priority: number = 0;

  @IntegerField({
    description: 'Share of traffic among channels of equal priority.',
    optional: true,
    default: DEFAULT_CHANNEL_WEIGHT,
    min: 1,
    max: INT32_BOUNDS.max,
  })
  weight: number = DEFAULT_CHANNEL_WEIGHT;

  @NumberField({
    description: POLLS_PER_SECOND_DESCRIPTION,
    example: 20,
    ...OPTIONAL_OR_NULL,
    ...POLLS_PER_SECOND_BOUNDS,
  })
  pollsPerSecond?: number | null;

  @EnumField(CHANNEL_STATUSES, {
    description: 'Whether the channel takes traffic.',
    optional: true,
    default: 'enabled',
  })
  status: ChannelStatus = 'enabled';
}

/** Every field optional; a new `secret` rotates the stored one. */
@ValidateObjectRule('uniqueChannelModels', uniqueModels)
export class UpdateChannelDto {
  @StringField({ description: 'Channel type (wire protocol).', optional: true, ...NAME_RULES })
  type?: string;

  @StringField({ description: 'Unique channel name.', optional: true, ...NAME_RULES })
  name?: string;

  @HttpUrlField({ description: 'Base URL of the upstream.', optional: true })
  baseUrl?: string;

  @StringField({
    description: 'New upstream credential (rotation); write-only.',
    optional: true,
    ...SECRET_RULES,
  })
  secret?: string;

  @JsonObjectField({
    description:
      "Per-channel settings (replace the stored ones), checked against the channel type's schema; a secret setting left out keeps its stored value, one sent as null is removed.",
    optional: true,
  })
  settings?: Record<string, unknown>;

  @NestedListField(() => ChannelModelDto, {
    description: 'Models the channel offers.',
    optional: true,
    minItems: 1,
  })
  models?: ChannelModelDto[];

  @IntegerField({ description: 'Higher priority is tried first.', optional: true, ...INT32_BOUNDS })
  priority?: number;

  @IntegerField({ description: 'Traffic share.', optional: true, min: 1, max: INT32_BOUNDS.max })
  weight?: number;

  @NumberField({ description: POLLS_PER_SECOND_DESCRIPTION, ...OPTIONAL_OR_NULL, ...POLLS_PER_SECOND_BOUNDS })
  pollsPerSecond?: number | null;

  @EnumField(CHANNEL_STATUSES, { description: 'Whether the channel takes traffic.', optional: true })
  status?: ChannelStatus;
}
