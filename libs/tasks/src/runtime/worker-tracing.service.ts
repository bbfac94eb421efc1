import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Environment } from '@gateway/config';
import { flushTracing, startTracing, type GatewayLogger } from '@gateway/observability';
import { WORKER_ENVIRONMENT, WORKER_LOGGER } from './worker-runtime.tokens';

export const WORKER_SERVICE_NAME = Symbol('WORKER_SERVICE_NAME');

/**
 * Turns tracing on when the worker's environment names an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT),
 * before any consumer starts (their start is a later, bootstrap hook), and sends what is buffered
 * once the jobs have drained. runWorkerApp stops it for good when the process ends.
 */
@Injectable()
export class WorkerTracing implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(WORKER_ENVIRONMENT) private readonly env: Environment,
    @Inject(WORKER_SERVICE_NAME) private readonly serviceName: string,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (await startTracing(this.env, this.serviceName)) this.logger.info('tracing on');
  }

  async onApplicationShutdown(): Promise<void> {
    await flushTracing();
  }
}
