import { waitFor } from '@gateway/testing';
import { GatewayHarness, type TextDemo } from './gateway-harness';
import { streamGenerate } from './native-wire.client';

describe('clients that abort mid-stream', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  it.each([
    ['kappa', 'kappa-2.0-flash'],
    ['compat', 'chat-fast'],
  ])(
    '100 aborting clients on a %s channel: 100 logs, upstream calls aborted, holds settled, ledger balanced',
    async (_type, model) => {
      await fetch(`${harness.simulatorUrl}/__sim/reset`, { method: 'POST' });
      const body = { contents: [{ parts: [{ text: 'long answer [[sim chunks=40;interval=50]]' }] }] };
      const streams = await Promise.all(
        Array.from({ length: 100 }, () =>
          streamGenerate(harness.url, demo.key, model, body, true, { abortAfterChunks: 2 }),
        ),
      );
      expect(streams.every((stream) => stream.status === 200 && stream.chunks.length === 2)).toBe(true);

      const stats = async () =>
        (await (await fetch(`${harness.simulatorUrl}/__sim/stats`)).json()) as {
          aborted: number;
          completed: number;
        };
      await waitFor(async () => (await stats()).aborted === 100, 5000);
      expect((await stats()).completed).toBe(0);

      await waitFor(async () => {
        await harness.settled();
        const rows = await harness.query<{ n: number }>(
          "select count(*)::int as n from request_logs where model = $1 and end_reason = 'client_disconnect'",
          [model],
        );
        return rows[0].n === 100;
      }, 5000);

      const open = await harness.query<{ n: number }>(
        "select count(*)::int as n from holds where status = 'open'",
      );
      expect(open[0].n).toBe(0);
      const totals = await harness.ledgerTotals(demo.accountId);
      const total = (kind: string) => totals[kind];
      const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
        'GET',
        `/admin/accounts/${demo.accountId}`,
      );
      expect(account.heldMicros).toBe('0');
      expect(BigInt(account.balanceMicros)).toBe(total('credit') - total('capture'));
      expect(total('capture')).toBeGreaterThan(0n);

      // Billed, but only for what was reported or delivered: each less than the complete answer.
      const complete = await streamGenerate(harness.url, demo.key, model, body, true);
      expect(complete.status).toBe(200);
      await harness.settled();
      const [costs] = await harness.query<{ disconnected: string; completed: string }>(
        `select max(cost_micros) filter (where end_reason = 'client_disconnect')::text as disconnected,
                max(cost_micros) filter (where end_reason = 'completed')::text as completed
           from request_logs where model = $1`,
        [model],
      );
      expect(BigInt(costs.disconnected)).toBeLessThan(BigInt(costs.completed));
    },
  );
});
