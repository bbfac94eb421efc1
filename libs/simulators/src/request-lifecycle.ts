import { FastifyInstance, FastifyRequest } from 'fastify';
import { redactHeaders, redactQuery, truncateBody } from './request-journal';
import { pathOfUrl } from './request-url.util';
import { SimulatorState } from './simulator-state';

export const CONTROL_PREFIX = '/__sim/';

export function isControlUrl(url: string): boolean {
  return url.startsWith(CONTROL_PREFIX);
}

/**
 * Counts every simulated request, turns a client disconnect into an abort signal (and the `aborted`
 * counter), and journals the request once its body has been read. Control routes are left alone.
 */
export function registerRequestLifecycle(server: FastifyInstance, state: SimulatorState): void {
  server.addHook('onRequest', (request, reply, done) => {
    if (isControlUrl(request.url)) return done();
    state.stats.countRequest();
    const exchange = state.exchangeOf(request.raw);
    const response = reply.raw;
    response.once('close', () => {
      const finished = response.writableFinished || exchange.isClosedBySimulator;
      state.stats.countOutcome(finished);
      if (!finished) exchange.clientDisconnected();
    });
    done();
  });

  server.addHook('preHandler', (request, _reply, done) => {
    if (isControlUrl(request.url)) return done();
    state.exchangeOf(request.raw).journalEntry = state.journal.record({
      method: request.method,
      path: pathOfUrl(request.url),
      query: redactQuery(queryOf(request)),
      headers: redactHeaders(request.headers),
      authenticated: false,
      body: typeof request.body === 'string' ? truncateBody(request.body) : '',
    });
    done();
  });
}

function queryOf(request: FastifyRequest): Record<string, string | string[]> {
  return (request.query ?? {}) as Record<string, string | string[]>;
}
