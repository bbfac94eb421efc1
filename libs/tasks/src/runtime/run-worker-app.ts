import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { GatewayConfig } from '@gateway/config';
import { errorMessageOf, stopTracing, type GatewayLogger } from '@gateway/observability';
import { WORKER_CONFIG, WORKER_LOGGER } from './worker-runtime.tokens';

/** Time allowed after the grace period for closing connections before the process stops regardless. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * Boots a worker as a Nest application context (no HTTP server). The first SIGTERM or SIGINT closes
 * it: workers finish their active jobs within the grace period, connections close, the process exits
 * 0. A second signal takes the default action (stop now).
 */
export async function runWorkerApp(rootModule: DynamicModule): Promise<INestApplicationContext> {
  // Nest's own console logger stays off: the worker logs through pino, and boot errors reject here.
  const app = await NestFactory.createApplicationContext(rootModule, { logger: false, abortOnError: false });
  const logger = app.get<GatewayLogger>(WORKER_LOGGER);
  const { shutdownGraceMs } = app.get<GatewayConfig>(WORKER_CONFIG);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.error({ signal }, 'shutdown did not finish in time; exiting');
        process.exit(1);
      }, shutdownGraceMs + CLOSE_MARGIN_MS).unref();
      app
        .close()
        .then(() => stopTracing())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
  logger.info('worker started');
  return app;
}

/** For main.ts: a worker that cannot boot says why on stderr and exits 1 (no logger exists yet). */
export function exitOnBootFailure(error: unknown): never {
  const message = errorMessageOf(error);
  process.stderr.write(`worker failed to start: ${message}\n`);
  process.exit(1);
}
