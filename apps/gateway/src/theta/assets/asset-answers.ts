import type { Asset, AssetGroup } from '@gateway/db';
import type { Listing, Page } from './asset-store';

/** Every group of the library is a generation group in the platform's default project (§6.5). */
const GROUP_TYPE = 'AIGC';
const PROJECT_NAME = 'default';

/** `GetAsset`'s record, in the control plane's shape with the gateway's ids (upstreams.md §6.5). */
export function assetRecord(row: Asset): Record<string, unknown> {
  return {
    Id: row.id,
    Name: row.name,
    URL: row.url,
    AssetType: row.assetType,
    GroupId: row.groupId,
    Status: row.status,
    ...(row.status === 'Failed' ? { Error: errorOf(row.failureReason) } : {}),
    ProjectName: PROJECT_NAME,
    CreateTime: row.createdAt.toISOString(),
    UpdateTime: row.updatedAt.toISOString(),
  };
}

export function groupRecord(row: AssetGroup): Record<string, unknown> {
  return {
    Id: row.id,
    Name: row.name,
    Description: row.description,
    GroupType: GROUP_TYPE,
    ProjectName: PROJECT_NAME,
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

/** worker-assets stores a failure as `<Code>: <Message>`. */
function errorOf(reason: string | null): { Code: string; Message: string } {
  const separator = reason?.indexOf(': ') ?? -1;
  if (!reason || separator < 0)
    return { Code: 'Failed', Message: reason ?? 'The asset could not be processed.' };
  return { Code: reason.slice(0, separator), Message: reason.slice(separator + 2) };
}
