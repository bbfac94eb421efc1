import { PageQueryDto } from '../shared/page-query.dto';

/** Query of `GET /admin/accounts/{id}/ledger`: a page, no filters. */
export class LedgerQueryDto extends PageQueryDto {}
