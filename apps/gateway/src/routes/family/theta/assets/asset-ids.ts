import { isPublicTaskId, newPublicTaskId } from '../../../../tasks/public-task-id.util';

/** Public id prefixes: clients see these ids, never the upstream's. */
export const ASSET_ID_PREFIX = 'asset';
export const ASSET_GROUP_ID_PREFIX = 'group';

export const newAssetId = (): string => newPublicTaskId(ASSET_ID_PREFIX);
export const newAssetGroupId = (): string => newPublicTaskId(ASSET_GROUP_ID_PREFIX);

/** Whether a value has the shape of an asset id: anything else names no asset, without a query. */
export const isAssetId = (value: string): boolean => isPublicTaskId(value, ASSET_ID_PREFIX);
export const isAssetGroupId = (value: string): boolean => isPublicTaskId(value, ASSET_GROUP_ID_PREFIX);
