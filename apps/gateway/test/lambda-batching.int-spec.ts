import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import {
  lambdaCalls,
  lambdaClient,
  MUSIC_PER_CALL,
  resetSimulator,
  rowStatuses,
  seedMusicDemo,
  startMusicWorker,
  submitted,
  upstreamIdOf,
  type MusicDemo,
} from './lambda-demo';

const OPEN_TASKS = 50;

/**
 * The worker polls music tasks in batches (issue 23): with 50 open tasks on one channel, each poll
 * cycle is one upstream `POST /lambda/fetch` naming every open task, and no task is polled alone.
 */
describe('lambda music batch polling', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: MusicDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedMusicDemo(harness);
    worker = await startMusicWorker(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('asks about 50 open tasks with one batch query per cycle, each task settling once', async () => {
    await resetSimulator(harness);
    const client = lambdaClient(harness, demo.key);
    // Ready 6 s after its submission upstream: long enough for all 50 to be open together, also on a
    // loaded CI machine (with 2.5 s, 50 submissions there once took longer than the first one's task).
    const ids = await Promise.all(
      Array.from({ length: OPEN_TASKS }, (_, index) =>
        submitted(client, 'music', { prompt: `song ${index} [[sim task_ms=6000]]` }),
      ),
    );
    await waitFor(
      async () => (await rowStatuses(harness, ids)).every((status) => status === 'completed'),
      30_000,
    );

    const calls = await lambdaCalls(harness);
    expect(calls.filter((call) => call.method === 'GET')).toEqual([]);
    expect(calls.filter((call) => call.path === '/lambda/submit/music')).toHaveLength(OPEN_TASKS);
    const batches = calls
      .filter((call) => call.method === 'POST' && call.path === '/lambda/fetch')
      .map((call) => (JSON.parse(call.body) as { ids: string[] }).ids);
    const upstreamIds = await Promise.all(ids.map((id) => upstreamIdOf(harness, id)));

    // One cycle asked about all of them in a single call.
    expect(batches.some((batch) => upstreamIds.every((id) => batch.includes(id)))).toBe(true);
    for (const batch of batches) expect(new Set(batch).size).toBe(batch.length);
    // Every call of a cycle names every open task: a task is in each batch from its first to its last.
    for (const upstreamId of upstreamIds) {
      const asked = batches.flatMap((batch, index) => (batch.includes(upstreamId) ? [index] : []));
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).toEqual(Array.from({ length: asked.length }, (_, offset) => asked[0] + offset));
    }
    // Polled alone, 50 tasks would have needed at least 50 queries.
    expect(batches.length).toBeLessThan(OPEN_TASKS);

    await harness.settled();
    const captures = await harness.query<{ n: number; total: string }>(
      "select count(*)::int as n, sum(amount)::text as total from ledger_entries where kind = 'capture' and request_id = any($1)",
      [ids],
    );
    expect(captures[0]).toEqual({
      n: OPEN_TASKS,
      total: (BigInt(OPEN_TASKS) * MUSIC_PER_CALL['lambda-v3-0']).toString(),
    });
  });
});
