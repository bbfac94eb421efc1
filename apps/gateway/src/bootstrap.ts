import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { createAccessLogger, newRequestId, requestIdFrom } from '@gateway/observability';
import { AppModule } from './app.module';
import type { InfrastructureOptions } from './infrastructure/infrastructure.module';
import { setupApiDocs } from './docs/api-docs';
import { useLeanAsyncResourceBind } from './http/async-resource-bind';
import type { GatewayRequest } from './http/gateway-request';
import { registerJsonBodyParser } from './http/json-body.parser';
import { lazySchemaCompilers } from './http/lazy-schema-compilers';
import { ResponseMetrics } from './http/response-metrics';
import { LOGGER } from './infrastructure/tokens';

export interface GatewayApp {
  app: NestFastifyApplication;
  fastify: FastifyInstance;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes connections. */
  shutdown(): Promise<void>;
}

export async function createGatewayApp(
  config: GatewayConfig,
  options: InfrastructureOptions = {},
): Promise<GatewayApp> {
  useLeanAsyncResourceBind();
  const adapter = new FastifyAdapter({
    bodyLimit: config.jsonBodyLimitBytes,
    // Always the gateway's own id: it keys the request's hold and log row, so a client reusing its
    // x-request-id must not collide. A sane client id is echoed beside it for correlation.
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    return503OnClosing: true,
    keepAliveTimeout: 65_000,
    // The gateway has no Nest middleware: without middie, no request runs its onRequest hook.
    skipMiddie: true,
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    await AppModule.forConfig(config, options),
    adapter,
    {
      logger: ['error', 'warn'],
      bodyParser: false,
    },
  );
  const fastify = app.getHttpAdapter().getInstance();
  const logger = app.get<Logger>(LOGGER);
  const accessLog = createAccessLogger(logger);
  const responseMetrics = app.get(ResponseMetrics);

  registerJsonBodyParser(fastify, config.jsonBodyLimitBytes);
  let draining = false;
  fastify.addHook('onRequest', (request, reply, done) => {
    (request as GatewayRequest).gateway = { startedAt: Date.now() };
    reply.header('x-request-id', request.id);
    const clientRequestId = request.headers['x-request-id'];
    if (clientRequestId !== undefined && requestIdFrom(clientRequestId) === clientRequestId) {
      reply.header('x-client-request-id', clientRequestId);
    }
    if (draining) reply.header('connection', 'close');
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const durationMs = Date.now() - (request as GatewayRequest).gateway.startedAt;
    responseMetrics.observe(request, reply.statusCode, durationMs);
    logRequest(accessLog, request, reply.statusCode, durationMs);
    done();
  });
  setupApiDocs(app);
  await app.init();
  await fastify.ready();

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      draining = true;
      // Node closes idle keep-alive connections only once, when closing starts; a connection whose
      // request finishes later would hold the server open until its keep-alive timeout.
      const sweep = setInterval(() => fastify.server.closeIdleConnections(), 100).unref();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
      await Promise.race([fastify.close(), grace]);
      clearInterval(sweep);
      await app.close();
    })());
  return { app, fastify, logger, shutdown };
}

function logRequest(accessLog: Logger, request: FastifyRequest, status: number, durationMs: number): void {
  if (request.url === '/metrics' || request.url === '/healthz') return;
  accessLog.info(
    { requestId: request.id, method: request.method, route: request.routeOptions.url, status, durationMs },
    'request',
  );
}
