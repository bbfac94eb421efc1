import type { FastifyReply, FastifyRequest } from 'fastify';
import { alphaErrorBody } from '../errors/alpha-envelope.renderer';
import { betaAnswerContextOf, betaErrorBody } from '../errors/beta-envelope.renderer';
import { errorBodyFor } from '../errors/error-envelope.renderer';
import { gammaErrorBody } from '../errors/gamma-envelope.renderer';
import type { GatewayError } from '@gateway/errors';
import { routeFamilyOf, type RouteFamily } from '../errors/route-family';
import { lambdaErrorBody } from '../errors/lambda-envelope.renderer';
import { closeAfterBody } from './lingering-close';

/**
 * Sends a GatewayError in the dialect of the route the request was made on. A refusal answered before
 * the request's body has arrived closes the connection after reading the rest (closeAfterBody).
 */
export function sendGatewayError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): void {
  const family = routeFamilyOf(request);
  closeAfterBody(request, reply);
  if (error.options.headers !== undefined) reply.headers(error.options.headers);
  if (error.options.retryAfterMs !== undefined) {
    reply.header('retry-after', String(Math.max(1, Math.ceil(error.options.retryAfterMs / 1000))));
  }
  reply
    .code(error.httpStatus)
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorBodyOf(family, request, error));
}

/** The error body in the dialect of the request's route, for an answer already under way (a stream's error event). */
export function gatewayErrorBody(request: FastifyRequest, error: GatewayError): Record<string, unknown> {
  return errorBodyOf(routeFamilyOf(request), request, error);
}

function errorBodyOf(
  family: RouteFamily,
  request: FastifyRequest,
  error: GatewayError,
): Record<string, unknown> {
  if (family === 'beta') return betaErrorBody(error, betaAnswerContextOf(request));
  if (family === 'alpha') return alphaErrorBody(error, request.id);
  if (family === 'gamma') return gammaErrorBody(error, request.id);
  if (family === 'lambda') return lambdaErrorBody(error);
  return errorBodyFor(family, error);
}
