import { Type } from 'class-transformer';
import { IntegerField, StringField } from '@gateway/contracts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './page-limit.constants';

/**
 * The paging half of every admin list that pages with a cursor (accounts, a ledger, tasks); each list's
 * query extends it with its filters. Query values arrive as strings; numbers are converted explicitly.
 */
export class PageQueryDto {
  @Type(() => Number)
  @IntegerField({
    description: 'Page size.',
    optional: true,
    default: DEFAULT_PAGE_LIMIT,
    min: 1,
    max: MAX_PAGE_LIMIT,
  })
  limit: number = DEFAULT_PAGE_LIMIT;

  @StringField({
    description: 'Where the previous page ended (its nextCursor).',
    optional: true,
    nonEmpty: true,
    maxLength: 400,
  })
  cursor?: string;
}
