import type { JobsOptions, Queue } from 'bullmq';

/**
 * Payload of a job on asset-tasks: look once more at one theta asset the upstream is still processing
 * (worker-assets moves its row to Active or Failed).
 */
export interface AssetStatusJob {
  assetId: string;
}

export const ASSET_STATUS_JOB_NAME = 'asset-status';

/**
 * Options of an asset's status job: one live job per asset (its id; encoded because BullMQ refuses a
 * colon), removed once it ends, so that the sweep of assets left processing can add it again.
 * Waiting between looks does not use attempts (the job moves itself to the delayed set).
 */
export function assetStatusJobOptions(assetId: string): JobsOptions {
  return {
    jobId: `asset-status-${encodeURIComponent(assetId)}`,
    attempts: 20,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

export function isAssetStatusJob(data: unknown): data is AssetStatusJob {
  return (
    typeof data === 'object' && data !== null && typeof (data as Partial<AssetStatusJob>).assetId === 'string'
  );
}

/** Enqueues the first look at an asset; a second call while its job lives adds nothing. */
export async function enqueueAssetStatus(queue: Queue, assetId: string): Promise<void> {
  await queue.add(ASSET_STATUS_JOB_NAME, { assetId }, assetStatusJobOptions(assetId));
}
