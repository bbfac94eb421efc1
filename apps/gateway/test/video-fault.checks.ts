import { waitFor } from '@gateway/testing';
import type { GatewayHarness } from './gateway-harness';
import { holdOf, VIDEO_PER_CALL, VIDEO_PER_SECOND } from './video-demo';

/** What one task of `seconds` at the 720p tier costs (every fault test asks for 1280x720). */
export const priceOf720p = (seconds: number): bigint =>
  VIDEO_PER_CALL + BigInt(seconds) * VIDEO_PER_SECOND['720p'];

/** The task's money as the books hold it: its hold, its ledger captures and its request-log rows. */
export async function moneyOfTask(harness: GatewayHarness, taskId: string) {
  const captures = await harness.query<{ amount: string }>(
    "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
    [taskId],
  );
  const logs = await harness.query<{ end_reason: string; cost_micros: string; media_seconds: number }>(
    'select end_reason, cost_micros::text, media_seconds from request_logs where request_id = $1',
    [taskId],
  );
  return {
    hold: (await holdOf(harness, taskId))?.status,
    captures: captures.map((row) => BigInt(row.amount)),
    logs,
  };
}

/**
 * A task settled exactly once: its hold closed, one capture of `capture` (none when released), and one
 * request-log row named by the task's id, carrying that cost.
 */
export async function expectSettledOnce(
  harness: GatewayHarness,
  taskId: string,
  expected: { capture: bigint; endReason: string },
): Promise<void> {
  // The worker writes the task's terminal status first, then settles its hold.
  await waitFor(async () => (await holdOf(harness, taskId))?.status === 'settled', 30_000);
  await harness.settled();
  const money = await moneyOfTask(harness, taskId);
  expect(money).toEqual({
    hold: 'settled',
    captures: expected.capture > 0n ? [expected.capture] : [],
    logs: [
      {
        end_reason: expected.endReason,
        cost_micros: expected.capture.toString(),
        media_seconds: expect.any(Number),
      },
    ],
  });
}

/** How often the simulator was asked on one of its routes (`compat:videoCreate`, `compat:videoRetrieve`). */
export async function simulatorRouteCount(harness: GatewayHarness, route: string): Promise<number> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/stats`);
  const stats = (await response.json()) as { byRoute: Record<string, number> };
  return stats.byRoute[route] ?? 0;
}
