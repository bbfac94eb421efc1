import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InvalidConfigurationError, type Environment } from '@gateway/config';
import {
  errorMessageOf,
  startMetricsServer,
  type GatewayLogger,
  type MetricsServer,
  type WorkerMetrics,
} from '@gateway/observability';
import { DatabaseConnections } from './database-connections.service';
import { WORKER_LOGGER, WORKER_METRICS } from './worker-runtime.tokens';

/**
 * Default metrics port of each worker when it runs from its process environment: distinct, so that
 * the four workers of one host (npm start, the quickstart) never clash. Containers set their own.
 */
export const DEFAULT_WORKER_METRICS_PORTS: Readonly<Record<string, number>> = {
  'worker-text': 9101,
  'worker-image': 9102,
  'worker-video': 9103,
  'worker-assets': 9104,
};

/** What the listener was told: a port (0 = off) and whether it was the operator's choice. */
export interface WorkerMetricsSettings {
  port: number;
  host: string;
  explicit: boolean;
}

export const WORKER_METRICS_SETTINGS = Symbol('WORKER_METRICS_SETTINGS');

/**
 * WORKER_METRICS_PORT (0 = off) and WORKER_METRICS_HOST. Unset, the port is the worker's default when
 * it configures from the process environment, and off when a test hands it an environment of its
 * own (many test workers share one machine; a test that scrapes sets the port).
 */
export function readWorkerMetricsSettings(
  env: Environment,
  serviceName: string,
  fromProcessEnvironment: boolean,
): WorkerMetricsSettings {
  const host = env['WORKER_METRICS_HOST']?.trim() || '0.0.0.0';
  const raw = env['WORKER_METRICS_PORT']?.trim();
  if (raw === undefined || raw === '') {
    const port = fromProcessEnvironment ? (DEFAULT_WORKER_METRICS_PORTS[serviceName] ?? 0) : 0;
    return { port, host, explicit: false };
  }
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidConfigurationError([
      `WORKER_METRICS_PORT must be an integer from 0 to 65535 (got "${raw}")`,
    ]);
  }
  return { port, host, explicit: true };
}

/**
 * Serves the worker's /metrics and /healthz once the worker is up, and stops serving last, after
 * its jobs have drained (so a health check keeps passing while it shuts down cleanly). A default
 * port another process holds is reported and skipped; a port the operator chose must be free.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: MetricsServer | undefined;

  constructor(
    @Inject(WORKER_METRICS) private readonly metrics: WorkerMetrics,
    @Inject(WORKER_METRICS_SETTINGS) private readonly settings: WorkerMetricsSettings,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
    database: DatabaseConnections,
  ) {
    metrics.sources.addPgPool('worker', database.pool);
  }

  /** The port it listens on; undefined when off. */
  get port(): number | undefined {
    return this.server?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host, explicit } = this.settings;
    if (port === 0) return;
    try {
      this.server = await startMetricsServer(this.metrics.registry, port, host);
      this.logger.info({ port: this.server.port }, 'serving /metrics');
    } catch (error) {
      if (explicit) throw error;
      this.logger.warn(
        { port, error: errorMessageOf(error) },
        'default metrics port unavailable; /metrics is off (set WORKER_METRICS_PORT)',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
