import type { Environment } from '@gateway/config';
import { readPositiveInteger, readWorkerConcurrency } from '../runtime/worker-environment.util';

export const ASSET_STATUS_SETTINGS = Symbol('ASSET_STATUS_SETTINGS');

export interface AssetStatusSettings {
  /** Status jobs in flight at once in this process (ASSET_WORKER_CONCURRENCY). */
  concurrency: number;
  /** ASSET_PROCESSING_DEADLINE_MS: an asset still processing after this is Failed. */
  processingDeadlineMs: number;
  /** ASSET_SWEEP_INTERVAL_MS: how often the sweep of assets left processing runs. */
  sweepIntervalMs: number;
  /** ASSET_STRANDED_AFTER_MS: how long an asset must have gone unwritten before the sweep enqueues it. */
  idleAfterMs: number;
}

const DAY_MS = 86_400_000;

export function readAssetStatusSettings(env: Environment): AssetStatusSettings {
  return {
    concurrency: readWorkerConcurrency(env, 'ASSET_WORKER_CONCURRENCY', 16),
    processingDeadlineMs: readPositiveInteger(env, 'ASSET_PROCESSING_DEADLINE_MS', 3_600_000, DAY_MS),
    sweepIntervalMs: readPositiveInteger(env, 'ASSET_SWEEP_INTERVAL_MS', 60_000, DAY_MS),
    idleAfterMs: readPositiveInteger(env, 'ASSET_STRANDED_AFTER_MS', 120_000, DAY_MS),
  };
}
