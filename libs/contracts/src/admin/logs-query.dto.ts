import { Type } from 'class-transformer';
import { IntegerField, IsoDateField, StringField } from '../validation/scalar-field.decorator';
import { DEFAULT_LOGS_LIMIT, MAX_LOGS_LIMIT, NAME_RULES } from './admin-values.constants';

/** Query of `GET /admin/logs`. Query values arrive as strings; numbers are converted explicitly. */
export class LogsQueryDto {
  @StringField({ description: 'Only this key.', optional: true, ...NAME_RULES })
  keyId?: string;

  @StringField({ description: 'Only requests charged to this account.', optional: true, ...NAME_RULES })
  accountId?: string;

  @StringField({
    description:
      "Only this request: the gateway's x-request-id (the client's own x-request-id is not stored).",
    optional: true,
    ...NAME_RULES,
  })
  requestId?: string;

  @StringField({ description: 'Only this model.', optional: true, ...NAME_RULES })
  model?: string;

  @StringField({ description: 'Only this channel.', optional: true, ...NAME_RULES })
  channelId?: string;

  @Type(() => Number)
  @IntegerField({ description: 'Only this HTTP status.', optional: true, min: 100, max: 599 })
  status?: number;

  @StringField({ description: 'Only this end reason, e.g. completed.', optional: true, ...NAME_RULES })
  endReason?: string;

  @IsoDateField({ description: 'Not before this time (ISO 8601).', optional: true })
  from?: string;

  @IsoDateField({ description: 'Before this time (ISO 8601).', optional: true })
  to?: string;

  @Type(() => Number)
  @IntegerField({
    description: 'Page size.',
    optional: true,
    default: DEFAULT_LOGS_LIMIT,
    min: 1,
    max: MAX_LOGS_LIMIT,
  })
  limit: number = DEFAULT_LOGS_LIMIT;

  @StringField({
    description: 'Where the previous page ended (its nextCursor).',
    optional: true,
    nonEmpty: true,
  })
  cursor?: string;
}
