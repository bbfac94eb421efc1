import type { HoldLeases, SettlementInput, SettlementService } from '@gateway/billing';
import type { GatewayMetrics } from '@gateway/observability';
import type { Logger } from 'pino';
import type { LazyQueue } from '../platform/infrastructure/lazy-queue';
import { SettlementRecorder } from './settlement-recorder';

/** A recorder whose database is an array: each write is one batch of request ids. */
function recorderWithBatches() {
  const batches: string[][] = [];
  const settlements = {
    settleMany: (batch: readonly SettlementInput[]) => {
      batches.push(batch.map((item) => item.requestId));
      return Promise.resolve({ appliedRequestIds: batch.map((item) => item.requestId), overages: [] });
    },
  } as unknown as SettlementService;
  const recorder = new SettlementRecorder(
    settlements,
    {} as HoldLeases,
    {} as LazyQueue,
    {} as Logger,
    {} as GatewayMetrics,
  );
  return { recorder, batches };
}

const settlementOf = (requestId: string) => ({ requestId, captureMicros: 1n }) as SettlementInput;

describe('SettlementRecorder', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gathers the settlements of its delay into one write', async () => {
    const { recorder, batches } = recorderWithBatches();
    recorder.settle(settlementOf('req_1'));
    await jest.advanceTimersByTimeAsync(20);
    recorder.settle(settlementOf('req_2'));
    expect(batches).toEqual([]);
    await jest.advanceTimersByTimeAsync(50);
    expect(batches).toEqual([['req_1', 'req_2']]);
  });

  it('writes at once on drain, without waiting out the delay (tests, shutdown)', async () => {
    const { recorder, batches } = recorderWithBatches();
    recorder.settle(settlementOf('req_1'));
    // No timer is advanced: before drain ended the wait, this never resolved under fake timers.
    await recorder.drain();
    expect(batches).toEqual([['req_1']]);
    recorder.settle(settlementOf('req_2'));
    await recorder.drain();
    expect(batches).toEqual([['req_1'], ['req_2']]);
  });
});
