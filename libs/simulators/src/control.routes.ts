import { FastifyInstance } from 'fastify';
import { JOURNAL_CAPACITY } from './request-journal';
import { CONTROL_PREFIX } from './request-lifecycle';
import { SimulatorState } from './simulator-state';

/** Observability for tests; these routes need no key and are neither counted nor journaled. */
export function registerControlRoutes(server: FastifyInstance, state: SimulatorState): void {
  server.get(`${CONTROL_PREFIX}stats`, async () => state.stats.snapshot());

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
