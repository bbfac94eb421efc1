import { Type } from 'class-transformer';
import { IntegerField } from '@gateway/contracts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../shared/page-limit.constants';

/** The newest deliveries of an endpoint; query values arrive as strings. */
export class WebhookDeliveryQueryDto {
  @Type(() => Number)
  @IntegerField({
    description: 'How many, newest first.',
    optional: true,
    default: DEFAULT_PAGE_LIMIT,
    min: 1,
    max: MAX_PAGE_LIMIT,
  })
  limit: number = DEFAULT_PAGE_LIMIT;
}
