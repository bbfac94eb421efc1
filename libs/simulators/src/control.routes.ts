import { FastifyInstance } from 'fastify';
import { JOURNAL_CAPACITY } from './request-journal';
import { CONTROL_PREFIX } from './request-lifecycle';
import { SimulatorState } from './simulator-state';
import type { SimulatorStatsSnapshot } from './simulator-stats';

/** Observability for tests; these routes need no key and are neither counted nor journaled. */
export function registerControlRoutes(server: FastifyInstance, state: SimulatorState): void {
  server.get(`${CONTROL_PREFIX}stats`, async (): Promise<SimulatorStatsSnapshot> => ({
    ...state.stats.snapshot(),
    videos: state.compatVideos.summary(),
  }));

  // compat video creates per Idempotency-Key since the last reset: `{ "<key>": {requests, created, videoId} }`.
  server.get(`${CONTROL_PREFIX}videos/creates`, async (request) => {
    const { key } = request.query as { key?: string };
    return state.compatVideos.createsByKey(key);
  });

  // compat videos that completed: `[{id, readyAtMs, completedAtMs}]`, for the benchmark's lag figures.
  server.get(`${CONTROL_PREFIX}videos/completions`, async () => state.compatVideos.completions());

  server.post(`${CONTROL_PREFIX}reset`, async () => {
    state.reset();
    return { ok: true };
  });

  server.get(`${CONTROL_PREFIX}requests`, async (request) => {
    const { limit } = request.query as { limit?: string };
    const parsed = Number(limit);
    const count =
      Number.isInteger(parsed) && parsed > 0 ? Math.min(parsed, JOURNAL_CAPACITY) : JOURNAL_CAPACITY;
    return state.journal.latest(count);
  });
}
