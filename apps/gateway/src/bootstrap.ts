import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ClientConnectionLimits, GatewayConfig } from '@gateway/config';
import { lazySchemaCompilers } from '@gateway/fastify-schema';
import {
  createAccessLogger,
  newRequestId,
  REQUEST_ID_HEADER,
  requestIdFrom,
  tracing,
} from '@gateway/observability';
import { AppModule } from './app.module';
import { AdminTokenGuard } from './platform/auth/admin-token.guard';
import { ApiKeyGuard } from './platform/auth/api-key.guard';
import { registerEarlyAuthentication } from './platform/auth/early-authentication.hook';
import { registerConsoleRoutes } from './console/console-routes';
import type { InfrastructureOptions } from './platform/infrastructure/infrastructure.module';
import { setupApiDocs } from './platform/docs/api-docs';
import { useLeanAsyncResourceBind } from './platform/http/async-resource-bind';
import { GatewayExceptionFilter } from './platform/http/gateway-exception.filter';
import type { GatewayRequest } from './platform/http/gateway-request';
import { registerJsonBodyParser } from './platform/http/json-body.parser';
import { registerMultipartBodyParser } from './platform/http/multipart-body.parser';
import { registerRequestTracing } from './platform/http/request-tracing.hook';
import { ResponseMetrics } from './platform/http/response-metrics';
import { trackSilentConnections } from './platform/http/silent-connections';
import { LOGGER } from './platform/infrastructure/tokens';
import { InFlightGenerations } from './pipeline/in-flight-generations';

export interface GatewayApp {
  app: NestFastifyApplication;
  fastify: FastifyInstance;
  logger: Logger;
  /**
   * Stops accepting and lets in-flight requests finish within the grace period; at its end, ends the
   * generations still running (each answers in its dialect and is settled), writes the settlements,
   * then closes connections.
   */
  shutdown(): Promise<void>;
}

/** How long generations ended at the deadline get to send their last event before their connections are cut. */
const DEADLINE_CLOSE_MARGIN_MS = 1_000;

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
    ...clientTimeoutOptions(config.clientConnections),
    trustProxy: trustedProxies(config.clientConnections.trustProxy),
    // perf-machinery: skip-middie (docs/performance-machinery.md)
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
  // Past the cap Node closes a new connection as soon as it is accepted; those open keep being served.
  fastify.server.maxConnections = config.clientConnections.maxConnections;
  const silentConnections = trackSilentConnections(fastify.server);
  const logger = app.get<Logger>(LOGGER);
  const accessLog = createAccessLogger(logger);
  const responseMetrics = app.get(ResponseMetrics);

  // First of the hooks, so that every later one and the handler run inside the request's span.
  if (tracing.enabled) registerRequestTracing(fastify);
  registerJsonBodyParser(fastify, config.jsonBodyLimitBytes);
  registerMultipartBodyParser(fastify);
  let draining = false;
  fastify.addHook('onRequest', (request, reply, done) => {
    (request as GatewayRequest).gateway = { startedAt: Date.now() };
    reply.header(REQUEST_ID_HEADER, request.id);
    const clientRequestId = request.headers[REQUEST_ID_HEADER];
    if (clientRequestId !== undefined && requestIdFrom(clientRequestId) === clientRequestId) {
      reply.header('x-client-request-id', clientRequestId);
    }
    if (draining) reply.header('connection', 'close');
    done();
  });
  registerEarlyAuthentication(fastify, {
    apiKeys: app.get(ApiKeyGuard),
    admin: config.adminApiEnabled ? app.get(AdminTokenGuard) : undefined,
    failures: app.get(GatewayExceptionFilter),
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const durationMs = Date.now() - (request as GatewayRequest).gateway.startedAt;
    responseMetrics.observe(request, reply.statusCode, durationMs);
    logRequest(accessLog, request, reply.statusCode, durationMs);
    done();
  });
  registerConsoleRoutes(fastify, config.console);
  setupApiDocs(app);
  await app.init();
  await fastify.ready();

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      draining = true;
      // Node closes idle keep-alive connections only once, when closing starts; a connection whose
      // request finishes later would hold the server open until its keep-alive timeout, and one that
      // never sent a byte until its client gives up (closing stops Node's headers-timeout checks).
      const sweep = setInterval(() => {
        fastify.server.closeIdleConnections();
        silentConnections.closeSilent();
      }, 100).unref();
      const drained = fastify.close();
      if ((await within(drained, config.shutdownGraceMs)) === 'elapsed') {
        await endAtDeadline(app.get(InFlightGenerations), drained, fastify, logger);
      }
      clearInterval(sweep);
      // Nest's hooks write the settlements handed over so far (SettlementRecorder), then close connections.
      await app.close();
    })());
  return { app, fastify, logger, shutdown };
}

async function endAtDeadline(
  generations: InFlightGenerations,
  drained: Promise<unknown>,
  fastify: FastifyInstance,
  logger: Logger,
): Promise<void> {
  logger.warn({ generations: generations.size }, 'shutdown grace period elapsed; ending open generations');
  const ended = generations.endAll();
  await within(Promise.all([ended, drained]), DEADLINE_CLOSE_MARGIN_MS);
  // A client that stopped reading holds its connection, and its generation's last write, open.
  fastify.server.closeAllConnections();
  if ((await within(ended, DEADLINE_CLOSE_MARGIN_MS)) === 'elapsed') {
    logger.error(
      { generations: generations.size },
      'generations still open after the deadline; their holds are left to the reaper',
    );
  }
}

/** Whether `promise` settled within `ms`; a rejection counts as settled. */
async function within(promise: Promise<unknown>, ms: number): Promise<'settled' | 'elapsed'> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<'elapsed'>((resolve) => {
    timer = setTimeout(() => resolve('elapsed'), ms).unref();
  });
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  try {
    return await Promise.race([settled, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Node's limits on how long a client may take to send a request: past them it answers 408 and closes
 * the connection. Neither runs once the request has arrived, so a response streams for as long as it
 * lasts. Node checks them every tenth of the headers timeout instead of its default 30 s, so that a
 * short timeout holds.
 */
function clientTimeoutOptions({ requestTimeoutMs, headersTimeoutMs }: ClientConnectionLimits) {
  return {
    requestTimeout: requestTimeoutMs,
    // Given to the server's constructor too, which checks the headers timeout against it.
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(headersTimeoutMs / 10))),
    },
  };
}

function trustedProxies(trustProxy: ClientConnectionLimits['trustProxy']): boolean | number | string[] {
  return typeof trustProxy === 'object' ? [...trustProxy] : trustProxy;
}

function logRequest(accessLog: Logger, request: FastifyRequest, status: number, durationMs: number): void {
  if (request.url === '/metrics' || request.url === '/healthz') return;
  accessLog.info(
    { requestId: request.id, method: request.method, route: request.routeOptions.url, status, durationMs },
    'request',
  );
}
