import type { Asset, Channel } from '@gateway/db';
import { UpstreamError, type AdapterContext } from '@gateway/providers-core';
import { AssetStatusProcessor } from './asset-status.processor';
import type { AssetOutcome, AssetStatusStore } from './asset-status.store';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const MINUTE = 60_000;

function assetRow(fields: Partial<Asset> = {}): Asset {
  return {
    id: 'asset_1',
    accountId: 'acct',
    groupId: 'group_1',
    channelId: 'chan_eta',
    upstreamId: 'asset-20261124120000-abcde',
    name: 'kite',
    url: 'https://cdn.test/kite.png',
    assetType: 'Image',
    status: 'Processing',
    failureReason: null,
    createdAt: new Date(NOW - 10 * MINUTE),
    updatedAt: new Date(NOW - 10 * MINUTE),
    deletedAt: null,
    ...fields,
  };
}

/** The rows in memory: what the processor wrote is what a test reads back. */
function storeOf(asset: Asset, channel: Partial<Channel> | null) {
  const outcomes: AssetOutcome[] = [];
  const store = {
    findAsset: async () => asset,
    findChannel: async () => channel as Channel | null,
    finish: async (_id: string, outcome: AssetOutcome) => {
      outcomes.push(outcome);
      return true;
    },
  } as unknown as AssetStatusStore;
  return { store, outcomes };
}

function processorOf(store: AssetStatusStore, connect: () => Promise<AdapterContext>) {
  return new AssetStatusProcessor({
    store,
    connectChannel: connect,
    clock: { now: () => NOW },
    logger: { info: () => undefined, warn: () => undefined },
    timing: { minPollDelayMs: 1_000, maxPollDelayMs: 30_000, submissionTimeoutMs: 1 },
    processingDeadlineMs: 60 * MINUTE,
  });
}

const unreachable = async (): Promise<AdapterContext> => {
  throw new Error('the control plane must not be called');
};

describe('AssetStatusProcessor', () => {
  it('fails an asset still processing past its deadline without asking the upstream', async () => {
    const { store, outcomes } = storeOf(assetRow({ createdAt: new Date(NOW - 61 * MINUTE) }), {
      type: 'eta',
    });
    expect(await processorOf(store, unreachable).look('asset_1')).toEqual({ kind: 'finished' });
    expect(outcomes).toEqual([
      {
        status: 'Failed',
        failureReason: 'ProcessingTimeout: the upstream did not finish processing within 3600 s',
      },
    ]);
  });

  it('fails an asset whose channel is gone', async () => {
    const { store, outcomes } = storeOf(assetRow(), null);
    await processorOf(store, unreachable).look('asset_1');
    expect(outcomes).toEqual([
      { status: 'Failed', failureReason: 'ChannelGone: the channel holding the asset no longer exists' },
    ]);
  });

  it('looks again after a passing upstream failure, at its hint, and writes nothing', async () => {
    const { store, outcomes } = storeOf(assetRow(), { type: 'eta', settings: {} });
    const throttled = async (): Promise<AdapterContext> => {
      throw new UpstreamError({
        kind: 'rate_limit',
        retryable: true,
        retryAfterMs: 5_000,
        message: 'slow down',
      });
    };
    expect(await processorOf(store, throttled).look('asset_1')).toEqual({ kind: 'wait', delayMs: 5_000 });
    expect(outcomes).toEqual([]);
  });

  it('leaves an asset that is no longer processing alone', async () => {
    const { store, outcomes } = storeOf(assetRow({ status: 'Active' }), { type: 'eta' });
    expect(await processorOf(store, unreachable).look('asset_1')).toEqual({ kind: 'finished' });
    expect(outcomes).toEqual([]);
  });
});
