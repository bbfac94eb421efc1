import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { toGatewayError } from '../errors/to-gateway-error';
import { CONFIG, LOGGER } from '../infrastructure/tokens';
import { sendGatewayError } from './error-reply';

/** Every error a controller throws leaves as the route family's envelope; internals are logged, never shown. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.sendFailure(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Also called by the routes that Fastify serves without Nest (text/generation-routes.ts). */
  sendFailure(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    // A route may have a body limit of its own (JsonBody): a 413 names the one that applied.
    const error = toGatewayError(
      exception,
      request.routeOptions?.bodyLimit ?? this.config.jsonBodyLimitBytes,
    );
    if (error.code === 'internal') {
      this.logger.error({ err: exception, requestId: request.id, url: request.url }, 'unhandled error');
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    sendGatewayError(request, reply, error);
  }
}
