import '@gateway/observability/nest-preload';
import { loadConfig } from '@gateway/config';
import { errorMessageOf, startTracing, stopTracing } from '@gateway/observability';
import { createGatewayApp } from './bootstrap';
import { applyHeapGrowingPercent, applyHeapPretenuring } from './platform/runtime/heap-policy';

/** Time allowed after the grace period for ending streams, settling and closing before the process stops regardless. */
const CLOSE_MARGIN_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  applyHeapGrowingPercent(config.heapGrowingPercent);
  applyHeapPretenuring(config.heapPretenuring);
  // Before the app is built: its request hook is registered only when tracing is on.
  await startTracing(process.env, 'gateway');
  const { fastify, logger, shutdown } = await createGatewayApp(config);
  await fastify.listen({ port: config.port, host: config.host });
  logger.info({ port: config.port }, 'gateway listening');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.error({ signal }, 'shutdown did not finish in time; exiting');
        logger.flush(() => process.exit(1));
      }, config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
      // The spans still buffered leave before the process does.
      shutdown()
        .then(() => stopTracing())
        .then(
          () => logger.flush(() => process.exit(0)),
          (error: unknown) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${errorMessageOf(error)}\n`);
  process.exit(1);
});
