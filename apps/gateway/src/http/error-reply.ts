import type { FastifyReply, FastifyRequest } from 'fastify';
import { betaAnswerContextOf, betaErrorBody } from '../errors/beta-envelope.renderer';
import { errorBodyFor } from '../errors/error-envelope.renderer';
import type { GatewayError } from '../errors/gateway-error';
import { routeFamilyOf } from '../errors/route-family';

/** Sends a GatewayError in the dialect of the route the request was made on. */
export function sendGatewayError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): void {
  const family = routeFamilyOf(request.url);
  if (error.options.retryAfterMs !== undefined) {
    reply.header('retry-after', String(Math.max(1, Math.ceil(error.options.retryAfterMs / 1000))));
  }
  reply
    .code(error.httpStatus)
    .header('content-type', 'application/json; charset=utf-8')
    .send(
      family === 'beta' ? betaErrorBody(error, betaAnswerContextOf(request)) : errorBodyFor(family, error),
    );
}
