/** The columns of an asset row its record is made of, spelt out: contracts know no Prisma. */
export interface AssetRecordColumns {
  id: string;
  name: string;
  url: string;
  assetType: string;
  groupId: string;
  status: string;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Every group of the library is a generation group in the platform's default project (§6.5). */
export const ASSET_GROUP_TYPE = 'AIGC';
export const ASSET_PROJECT_NAME = 'default';

/**
 * `GetAsset`'s record, in the control plane's shape with the gateway's ids (upstreams.md §6.5).
 * Rendered by the gateway's asset routes and by the webhook events of assets (worker-text).
 */
export function assetRecord(row: AssetRecordColumns): Record<string, unknown> {
  return {
    Id: row.id,
    Name: row.name,
    URL: row.url,
    AssetType: row.assetType,
    GroupId: row.groupId,
    Status: row.status,
    ...(row.status === 'Failed' ? { Error: assetErrorOf(row.failureReason) } : {}),
    ProjectName: ASSET_PROJECT_NAME,
    CreateTime: row.createdAt.toISOString(),
    UpdateTime: row.updatedAt.toISOString(),
  };
}

/** worker-assets stores a failure as `<Code>: <Message>`. */
function assetErrorOf(reason: string | null): { Code: string; Message: string } {
  const separator = reason?.indexOf(': ') ?? -1;
  if (!reason || separator < 0)
    return { Code: 'Failed', Message: reason ?? 'The asset could not be processed.' };
  return { Code: reason.slice(0, separator), Message: reason.slice(separator + 2) };
}
