import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tracing, type TraceSpan } from '@gateway/observability';

const SPAN = Symbol('gateway.request.span');

type TracedRequest = FastifyRequest & { [SPAN]?: TraceSpan };

/**
 * One trace per request: a server span from arrival to the end of the response, active while the
 * request is handled, so that what the handler starts (a hold, upstream attempts, a task's queued
 * job) joins it. Registered only when tracing is on: a gateway without it runs no hook at all.
 * Attributes are the method, the route pattern and the status: never the URL itself (a key may ride
 * in `?key=`), headers or bodies.
 */
export function registerRequestTracing(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const span = tracing.startRootSpan(`${request.method} ${route}`, {
      'http.request.method': request.method,
      'http.route': route,
      'gateway.request.id': request.id,
    });
    (request as TracedRequest)[SPAN] = span;
    // Everything after this hook (body parsing, guards, the handler) runs in the span's context.
    tracing.runInSpan(span, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    endSpan(request as TracedRequest, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    endSpan(request as TracedRequest, undefined);
    done();
  });
}

function endSpan(request: TracedRequest, status: number | undefined): void {
  const span = request[SPAN];
  if (!span) return;
  request[SPAN] = undefined;
  if (status === undefined) tracing.fail(span, 'client_disconnect');
  else {
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) tracing.fail(span, `http_${status}`);
  }
  span.end();
}
