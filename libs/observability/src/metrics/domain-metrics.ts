import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './latency-buckets';

/**
 * Task lag buckets in seconds: from well under one poll interval to the minutes a queue of polls can
 * fall behind (the bench's target is a p99 within 5 s of the poll interval).
 */
export const TASK_LAG_BUCKETS_SECONDS: readonly number[] = [
  0.1, 0.25, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 45, 60, 120, 300,
];

/** What `gateway_pg_pool_connections` reads at scrape time (pg's Pool has these three counts). */
export interface PgPoolFigures {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** What `gateway_redis_connection_ready` reads at scrape time (ioredis' connection status). */
export interface RedisConnectionStatus {
  readonly status: string;
}

/** This process's hold leases, read at scrape time (HoldLeases.figures()). */
export interface LeaseFigures {
  readonly leases: number;
  readonly openHolds: number;
  readonly availableMicros: bigint;
}

/**
 * The connections and leases a registry reports on, registered by whoever owns them. Read only when
 * Prometheus scrapes: nothing on the request path touches them.
 */
export class ScrapedSources {
  readonly pgPools = new Map<string, PgPoolFigures>();
  readonly redisConnections = new Map<string, RedisConnectionStatus>();
  leases: (() => LeaseFigures) | undefined;
  /** What hands counts kept outside prom-client over to it (onScrape). */
  private readonly flushes: (() => void)[] = [];

  addPgPool(name: string, pool: PgPoolFigures): void {
    this.pgPools.set(name, pool);
  }

  addRedis(name: string, connection: RedisConnectionStatus): void {
    this.redisConnections.set(name, connection);
  }

  /** Registers what hands counts kept outside prom-client over to it before a scrape reads them. */
  onScrape(flush: () => void): void {
    this.flushes.push(flush);
  }

  /** Hands every pending count over (the collect hook of the counters they feed). */
  flushPending(): void {
    for (const flush of this.flushes) flush();
  }
}

/**
 * The business figures that the gateway and every worker export under the same names (each process
 * its own share; Prometheus sums over instances). Every label set is bounded by configuration: models
 * and limits come from the price table and the governance settings, kinds and statuses from code.
 */
export interface DomainMetrics {
  /** Tokens of settled requests and tasks, by model and direction (input, output). */
  tokens: Counter<'model' | 'direction'>;
  /** Money captured by settlements, in micros, by model. */
  spendMicros: Counter<'model'>;
  /** Time from the request's arrival to the first byte of a streamed answer, by model. */
  streamFirstByte: Histogram<'model'>;
  /** Task status changes this process won (queued, processing, completed, failed, cancelled), by kind. */
  taskTransitions: Counter<'kind' | 'status'>;
  /** Time from the upstream's completion to the task's terminal transition (see TaskMetrics). */
  taskCompletionLag: Histogram<'kind'>;
  /**
   * Requests refused by a limit (requests or tokens per minute, concurrency, outstanding tasks), by
   * limit. The governance pipeline increments it; defined here so that one name serves every process.
   */
  limitRefusals: Counter<'limit'>;
  /** Webhook delivery attempts by outcome (delivered, retry, failed): worker-text's. */
  webhookDeliveries: Counter<'outcome'>;
  /** Where connection pools and leases are read from at scrape time. */
  sources: ScrapedSources;
}

export function createDomainMetrics(registry: Registry): DomainMetrics {
  const registers = [registry];
  const sources = new ScrapedSources();
  scrapedGauges(registers, sources);
  return {
    tokens: new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens of settled requests and tasks, by model and direction (input, output).',
      labelNames: ['model', 'direction'],
      registers,
      collect: () => sources.flushPending(),
    }),
    spendMicros: new Counter({
      name: 'gateway_spend_micros_total',
      help: 'Money captured by settlements (millionths of the account currency), by model.',
      labelNames: ['model'],
      registers,
      collect: () => sources.flushPending(),
    }),
    streamFirstByte: new Histogram({
      name: 'gateway_stream_first_byte_seconds',
      help: 'Time from request arrival to the first byte of a streamed answer, by model.',
      labelNames: ['model'],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    }),
    taskTransitions: new Counter({
      name: 'gateway_task_transitions_total',
      help: 'Task status changes written by this process, by task kind and the status entered.',
      labelNames: ['kind', 'status'],
      registers,
    }),
    taskCompletionLag: new Histogram({
      name: 'gateway_task_completion_lag_seconds',
      help:
        'Time from the upstream finishing a task to the gateway recording it as ended (at most: measured ' +
        'from the last poll that still saw it running), by task kind.',
      labelNames: ['kind'],
      buckets: [...TASK_LAG_BUCKETS_SECONDS],
      registers,
    }),
    limitRefusals: new Counter({
      name: 'gateway_limit_refusals_total',
      help: 'Requests refused by a limit before any hold, by limit.',
      labelNames: ['limit'],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'gateway_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded, by outcome (delivered, retry, failed).',
      labelNames: ['outcome'],
      registers,
    }),
    sources,
  };
}

/** Gauges computed from `sources` when the registry is scraped. */
function scrapedGauges(registers: Registry[], sources: ScrapedSources): void {
  new Gauge({
    name: 'gateway_pg_pool_connections',
    help: 'Connections of a Postgres pool of this process, by pool and state (total, idle, waiting clients).',
    labelNames: ['pool', 'state'],
    registers,
    collect() {
      for (const [pool, figures] of sources.pgPools) {
        this.set({ pool, state: 'total' }, figures.totalCount);
        this.set({ pool, state: 'idle' }, figures.idleCount);
        this.set({ pool, state: 'waiting' }, figures.waitingCount);
      }
    },
  });
  new Gauge({
    name: 'gateway_redis_connection_ready',
    help: 'Whether a Redis connection of this process is ready (1) or not (0), by connection.',
    labelNames: ['connection'],
    registers,
    collect() {
      for (const [connection, redis] of sources.redisConnections) {
        this.set({ connection }, redis.status === 'ready' ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'gateway_leases_open',
    help: 'Hold leases this process has open (each reserves money on one account).',
    registers,
    collect() {
      if (sources.leases) this.set(sources.leases().leases);
    },
  });
  new Gauge({
    name: 'gateway_lease_holds_open',
    help: 'Holds taken from this process’s leases and not yet settled.',
    registers,
    collect() {
      if (sources.leases) this.set(sources.leases().openHolds);
    },
  });
  new Gauge({
    name: 'gateway_lease_available_micros',
    help: 'Money reserved by this process’s leases and not held by a request yet.',
    registers,
    collect() {
      if (sources.leases) this.set(Number(sources.leases().availableMicros));
    },
  });
}
