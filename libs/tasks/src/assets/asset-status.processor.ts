import type { Asset, Channel } from '@gateway/db';
import { assetAdapterFor } from '@gateway/providers';
import { UpstreamError, type AdapterContext, type Clock, type UpstreamAsset } from '@gateway/providers-core';
import type { ChannelConnector } from '../task/prisma-task-channel.resolver';
import { nextPollDelayMs } from '../task/poll-delay.util';
import type { TaskStepLogger, TaskStepTiming } from '../task/task-step.types';
import type { AssetOutcome, AssetStatusStore } from './asset-status.store';

/** Nothing left to do for this asset, or look again after `delayMs`. */
export type AssetLookResult = { kind: 'finished' } | { kind: 'wait'; delayMs: number };

export interface AssetStatusDependencies {
  store: AssetStatusStore;
  connectChannel: ChannelConnector;
  clock: Clock;
  logger: TaskStepLogger;
  /** Bounds between two looks (the task steps' own, TASK_MIN_POLL_DELAY_MS …). */
  /** The poll delays' bounds and the rest of the task timing; an asset has no progress to write. */
  timing: Omit<TaskStepTiming, 'progressWriteIntervalMs'>;
  /** How long the upstream may take to process an asset before the gateway calls it Failed. */
  processingDeadlineMs: number;
}

const FINISHED: AssetLookResult = { kind: 'finished' };

/**
 * One look at an asset the upstream is processing (upstreams.md §6.5: Processing → Active or
 * Failed), safe to re-run: `GetAsset` on the control plane of the asset's channel, then the row moves
 * out of Processing in one compare-and-swap, or the look is scheduled again, a tenth of the asset's
 * age later within the timing bounds. A failure the upstream will not take back (a refused id, a
 * vanished channel) or a processing past its deadline fails the asset; a passing one waits.
 */
export class AssetStatusProcessor {
  constructor(private readonly deps: AssetStatusDependencies) {}

  async look(assetId: string): Promise<AssetLookResult> {
    const asset = await this.deps.store.findAsset(assetId);
    if (!asset || asset.status !== 'Processing' || asset.deletedAt !== null) return FINISHED;
    const deadlineAt = new Date(asset.createdAt.getTime() + this.deps.processingDeadlineMs);
    if (this.deps.clock.now() >= deadlineAt.getTime()) {
      const seconds = Math.round(this.deps.processingDeadlineMs / 1000);
      return this.finish(
        asset,
        failed('ProcessingTimeout', `the upstream did not finish processing within ${seconds} s`),
      );
    }
    const channel = await this.deps.store.findChannel(asset.channelId);
    const adapter = channel ? assetAdapterFor(channel.type) : undefined;
    if (!channel || !adapter)
      return this.finish(asset, failed('ChannelGone', 'the channel holding the asset no longer exists'));
    let upstream: UpstreamAsset;
    try {
      upstream = await adapter.getAsset(asset.upstreamId, await this.connect(channel));
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const { failure } = error;
      if (!failure.retryable)
        return this.finish(asset, failed(failure.upstreamCode ?? failure.kind, failure.message));
      return this.waitFor(asset, deadlineAt, failure.retryAfterMs);
    }
    if (upstream.status === 'active') return this.finish(asset, { status: 'Active' });
    if (upstream.status === 'failed') {
      const failure = upstream.failure ?? {
        code: 'Failed',
        message: 'the upstream could not process the asset',
      };
      return this.finish(asset, failed(failure.code, failure.message));
    }
    return this.waitFor(asset, deadlineAt);
  }

  private async finish(asset: Asset, outcome: AssetOutcome): Promise<AssetLookResult> {
    if (await this.deps.store.finish(asset.id, outcome)) {
      this.deps.logger.info({ assetId: asset.id, status: outcome.status }, 'asset processing ended');
    }
    return FINISHED;
  }

  private waitFor(asset: Asset, deadlineAt: Date, hintMs?: number): AssetLookResult {
    const { createdAt } = asset;
    return {
      kind: 'wait',
      delayMs: nextPollDelayMs({ createdAt, deadlineAt }, this.deps.clock.now(), this.deps.timing, hintMs),
    };
  }

  private connect(channel: Channel): Promise<AdapterContext> {
    return this.deps.connectChannel(channel);
  }
}

function failed(code: string, message: string): AssetOutcome {
  return { status: 'Failed', failureReason: `${code}: ${message}` };
}
