import { ASSET_GROUP_TYPE, ASSET_PROJECT_NAME } from '@gateway/contracts';
import type { AssetGroup } from '@gateway/db';
import type { Listing, Page } from './asset-store';

// The asset record lives in libs/contracts (views/): worker-text's webhook events render assets too.
export { assetRecord } from '@gateway/contracts';

export function groupRecord(row: AssetGroup): Record<string, unknown> {
  return {
    Id: row.id,
    Name: row.name,
    Description: row.description,
    GroupType: ASSET_GROUP_TYPE,
    ProjectName: ASSET_PROJECT_NAME,
    CreateTime: row.createdAt.toISOString(),
    UpdateTime: row.updatedAt.toISOString(),
  };
}

/** `{Items, TotalCount, PageNumber, PageSize}`. */
export function pageRecord<Row>(
  listing: Listing<Row>,
  page: Page,
  view: (row: Row) => Record<string, unknown>,
) {
  return {
    Items: listing.rows.map(view),
    TotalCount: listing.total,
    PageNumber: page.number,
    PageSize: page.size,
  };
}
