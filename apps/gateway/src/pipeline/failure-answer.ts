import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { CancellationSignal } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { sendGatewayError } from '../platform/http/error-reply';
import { FailoverExhaustedError } from '@gateway/routing';
import { endedByShutdown, SHUTDOWN_MESSAGE } from './in-flight-generations';
import type { GenerationOutcome } from './request-log-fields';

/**
 * A failure after a channel answered (its images could not be delivered, say): the channel and the
 * attempts stay in the request's log row.
 */
export class ServedFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly channelId: string,
    readonly attempts: number,
  ) {
    super('failed after a channel answered', { cause: failure });
  }
}

/**
 * Answers a generation that got no upstream answer: the client's error in the route's dialect (none
 * when the client left), and the outcome that settles its hold with nothing captured.
 */
export function answerFailure(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  signal: CancellationSignal,
  logger: Logger,
): GenerationOutcome {
  if (error instanceof ServedFailure) {
    const failed = answerFailure(error.failure, request, reply, signal, logger);
    return { ...failed, channelId: error.channelId, attempts: error.attempts };
  }
  const attempts = error instanceof FailoverExhaustedError ? error.attempts.length : 0;
  if (endedByShutdown(signal)) {
    sendGatewayError(request, reply, new GatewayError('service_unavailable', SHUTDOWN_MESSAGE));
    return { httpStatus: 503, endReason: 'shutdown', attempts };
  }
  if (signal.aborted) return { httpStatus: 499, endReason: 'client_disconnect', attempts };
  const clientError =
    error instanceof GatewayError ? error : new GatewayError('internal', 'Internal error.', { cause: error });
  if (clientError.code === 'internal') {
    logger.error({ err: error, requestId: request.id, route: request.url }, 'generation failed');
  }
  sendGatewayError(request, reply, clientError);
  return { httpStatus: clientError.httpStatus, endReason: 'upstream_error', attempts };
}
