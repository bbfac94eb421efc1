/** Page sizes of the admin lists that page with a cursor (accounts, a ledger). */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;
