export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

/** The master keys that encrypt channel secrets: the current one for writing, all known ones for reading. */
export interface MasterKeyring {
  readonly currentVersion: number;
  readonly currentKey: Buffer;
  /** Every usable key by version, the current one included. */
  readonly keys: ReadonlyMap<number, Buffer>;
}

/**
 * The whole process configuration, parsed once at boot. Each field mirrors one environment variable
 * (see libs/config/README.md); the object is frozen.
 */
export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  /** Every statement of the serving path and the workers: direct, or through a transaction pooler. */
  readonly databaseUrl: string;
  /**
   * DATABASE_DIRECT_URL: a connection straight to Postgres for what needs a session (migrations,
   * session advisory locks, LISTEN); databaseUrl when unset.
   */
  readonly databaseDirectUrl: string;
  /**
   * True when DATABASE_DIRECT_URL is set, which says that databaseUrl reaches Postgres through a pooler
   * in transaction mode (PgBouncer): its connections then keep nothing from one transaction to the
   * next (no named prepared statements, no session settings).
   */
  readonly databaseBehindTransactionPooler: boolean;
  readonly databasePoolSize: number;
  /** REDIS_URL: meaningful only when `redis` is a single server (connect through `redis`). */
  readonly redisUrl: string;
  /** The Redis deployment: one server, a cluster or a Sentinel-watched primary. */
  readonly redis: RedisTopology;
  /** Every Redis key and pub/sub channel name starts with this. */
  readonly redisPrefix: string;
  /**
   * The prefix of BullMQ's keys: redisPrefix, wrapped in a hash tag on a Redis Cluster (`{gw}`) so that
   * every key of every queue shares one slot, as BullMQ's scripts require there.
   */
  readonly queuePrefix: string;
  /**
   * Whether this instance serves /admin. Off on public replicas: no admin surface to attack, and
   * none of the admin API's memory (Prisma's query compiler is loaded by admin routes only).
   */
  readonly adminApiEnabled: boolean;
  /** Empty when the admin API is off. */
  readonly adminToken: string;
  readonly masterKeys: MasterKeyring;
  readonly jsonBodyLimitBytes: number;
  readonly logLevel: LogLevel;
  readonly keyCacheTtlMs: number;
  /** How long an unknown key hash stays cached: a wrong key repeated within it costs no query. */
  readonly keyCacheUnknownTtlMs: number;
  /** Client connections: request timeouts, the connection cap and the proxies trusted for addresses. */
  readonly clientConnections: ClientConnectionLimits;
  /**
   * Failed authentications (inference keys and the admin token alike) one client address may make
   * per window before its failing requests get 429; 0 turns the throttle off.
   */
  readonly authFailureLimit: number;
  readonly authFailureWindowMs: number;
  readonly upstreamHeadersTimeoutMs: number;
  readonly maxAttempts: number;
  readonly circuitFailureThreshold: number;
  readonly circuitWindowMs: number;
  readonly circuitCooldownMs: number;
  readonly shutdownGraceMs: number;
  readonly holdTtlMs: number;
  /** How many holds a lease reserves ahead when it opens or grows; 0 writes every hold (no leases). */
  readonly leaseHoldsAhead: number;
  /** A lease unused this long is closed and its rest given back to the account. */
  readonly leaseIdleMs: number;
  /** A lease's lifetime in the database: renewed while used, closed by the reaper when it lapses. */
  readonly leaseTtlMs: number;
  /** Hosts (or addresses) the SSRF-safe fetcher may reach even though they are private. Lower-cased. */
  readonly ssrfAllowHosts: readonly string[];
  /** Largest body the SSRF-safe fetcher downloads (an upstream's result image, for example). */
  readonly safeFetchMaxBytes: number;
  /** Time the SSRF-safe fetcher allows one download, redirects and body included. */
  readonly safeFetchTimeoutMs: number;
  /**
   * How long an image request on an asynchronous wire (submit, then poll) waits within the request
   * for the upstream's result before it answers 504.
   */
  readonly imageTaskTimeoutMs: number;
  /** Time between two polls of such an upstream task (an upstream's retry hint may lengthen it). */
  readonly imageTaskPollIntervalMs: number;
  /** How long a video task may run, by family; set on the task row when the gateway creates it. */
  readonly videoTaskDeadlines: VideoTaskDeadlines;
  /**
   * 0 (the default): a task's create answers before anything reaches the upstream. Above 0: the create
   * makes the task's first step (the upstream's create) itself and waits up to this long for it, so an
   * upstream's refusal at create (its moderation) is answered as a 4xx instead of a failed task.
   */
  readonly taskSubmitAtCreateMs: number;
  readonly metricsEnabled: boolean;
  /**
   * How much the V8 heap may grow past what the last full collection kept alive before the next
   * one (percent); 0 keeps V8's own policy, which lets a busy process grow to four times that.
   */
  readonly heapGrowingPercent: number;
  /**
   * Whether V8 may move an allocation site's objects straight to the old generation once many of
   * them survived a young collection (its allocation-site pretenuring). Off by default: see
   * apps/gateway/src/platform/runtime/heap-policy.ts.
   */
  readonly heapPretenuring: boolean;
  /**
   * Origin (and optional path) of the absolute URLs the gateway writes into answers, without a
   * trailing slash; undefined when unset.
   */
  readonly publicBaseUrl: string | undefined;
  /** Where the gateway keeps the files it serves itself (see libs/storage). */
  readonly objectStore: ObjectStoreConfig;
  /** How often worker-image removes the stored files whose retention has ended. */
  readonly objectSweepIntervalMs: number;
  /** How long finished task rows and their stored requests are kept (worker-text's sweep). */
  readonly taskRetention: TaskRetention;
  /** How long the request-log rollups are kept (worker-text's rollup tick). */
  readonly rollupRetention: RollupRetention;
  /** Delivery of webhook events (worker-text's delivery worker). */
  readonly webhooks: WebhookSettings;
  /** The operator console at /console and its sign-in sessions. */
  readonly console: ConsoleConfig;
  /** The progress streams of `GET /v1/tasks/{id}/events` (task-event-streams.parse.ts). */
  readonly taskEvents: TaskEventStreams;
}

export interface TaskEventStreams {
  /** TASK_EVENTS_HEARTBEAT_MS: a comment line after this long without an event. */
  readonly heartbeatMs: number;
  /**
   * TASK_EVENTS_FALLBACK_POLL_MS: how often an instance with open streams reads the new events of all
   * their tasks without being woken by an announcement (Redis pub/sub), one query for all of them: the
   * longest an event waits when its announcement was lost.
   */
  readonly fallbackPollMs: number;
  /** TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: open streams one account may hold on one instance. */
  readonly maxStreamsPerAccount: number;
  /** TASK_EVENTS_MAX_STREAMS: open streams one instance serves. */
  readonly maxStreams: number;
  /** TASK_EVENTS_RETENTION_HOURS: how long recorded events (what a resumed stream replays) are kept. */
  readonly retentionHours: number;
}

export interface ConsoleConfig {
  /** CONSOLE_ENABLED, and the admin API on: serve /console and the session routes under /admin. */
  readonly enabled: boolean;
  /** CONSOLE_SESSION_TTL: seconds a console session lasts from its sign-in (no sliding renewal). */
  readonly sessionTtlSeconds: number;
  /** CONSOLE_DIR: the console's build (index.html and assets/), absolute. */
  readonly directory: string;
}

/** How webhook events are delivered (README, Webhooks). */
export interface WebhookSettings {
  /** WEBHOOK_RETRY_SCHEDULE: the wait before each attempt, counted from the previous one; its length is the attempts made. */
  readonly retryScheduleMs: readonly number[];
  /** WEBHOOK_TIMEOUT_MS: one attempt, until the answer's end. */
  readonly timeoutMs: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the delivery worker looks for due deliveries. */
  readonly pollIntervalMs: number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY: attempts in flight to one endpoint, so a slow one holds few slots. */
  readonly endpointConcurrency: number;
  /** WEBHOOK_WORKER_CONCURRENCY: attempts in flight in one worker process. */
  readonly workerConcurrency: number;
  /** WEBHOOK_RETENTION_DAYS: an ended delivery (and its attempts, and its event) is deleted this long after; 0 keeps them. */
  readonly retentionDays: number;
}

/** The retention of the request-log rollups (docs/admin-figures.md). */
export interface RollupRetention {
  /** ROLLUP_MINUTE_RETENTION_DAYS: minute rows (the overview's minute charts) are kept this long. */
  readonly minuteDays: number;
  /** ROLLUP_HOUR_RETENTION_DAYS: hour rows (usage, the overview's hourly charts) are kept this long. */
  readonly hourDays: number;
  /** ROLLUP_SWEEP_BATCH: the most rows one sweep statement deletes from each rollup. */
  readonly sweepBatch: number;
}

/** The retention of finished tasks (docs/task-storage.md); a count of days of 0 keeps for ever. */
export interface TaskRetention {
  /** TASK_RETENTION_DAYS: a finished task's row is deleted this long after it finished. */
  readonly taskDays: number;
  /** TASK_REQUEST_RETENTION_DAYS: its stored request (prompt, images, metadata) is cleared sooner. */
  readonly requestDays: number;
  /** TASK_RETENTION_SWEEP_INTERVAL_MS: how often worker-text sweeps. */
  readonly sweepIntervalMs: number;
}

export interface VideoTaskDeadlines {
  /** VIDEO_TASK_DEADLINE_MS: every family without an override. */
  readonly defaultMs: number;
  /** VIDEO_TASK_DEADLINES: overrides by family, or by a word prefix of its name (lower case). */
  readonly byFamily: ReadonlyMap<string, number>;
}

export interface ClientConnectionLimits {
  /**
   * Time a client has to send a whole request, headers and body; past it the connection gets 408 and
   * is closed. It ends when the request has arrived: a response may stream for as long as it lasts.
   */
  readonly requestTimeoutMs: number;
  /** Time a client has to send the request headers (at most requestTimeoutMs). */
  readonly headersTimeoutMs: number;
  /** Open client connections beyond which a new one is closed as soon as it is accepted. */
  readonly maxConnections: number;
  /**
   * Whose X-Forwarded-For gives the client address (Fastify's trustProxy): nobody (false), every
   * peer (true), that many hops, or the listed addresses and CIDR ranges.
   */
  readonly trustProxy: boolean | number | readonly string[];
}

export type ObjectStoreConfig = LocalObjectStoreConfig | S3ObjectStoreConfig;

interface ObjectStoreRetention {
  /** How long a stored object is kept unless the writer asks for less. */
  readonly retentionHours: number;
}

export interface LocalObjectStoreConfig extends ObjectStoreRetention {
  readonly kind: 'local';
  /** Absolute path; the gateway and the worker that sweeps it must see the same directory. */
  readonly directory: string;
}

export interface S3ObjectStoreConfig extends ObjectStoreRetention {
  readonly kind: 's3';
  /** Undefined: the SDK's default endpoint for the region. */
  readonly endpoint: string | undefined;
  readonly region: string;
  readonly bucket: string;
  /** Start of every object key, so the store can share a bucket; may be empty. */
  readonly keyPrefix: string;
  /** Undefined: the SDK's default credential chain (environment, instance role…). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
  readonly forcePathStyle: boolean;
}

export interface RedisNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** Credentials and TLS of a cluster's nodes or a Sentinel-watched primary (a single server's are in its URL). */
interface RedisCredentials {
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly tls: boolean;
}

export type RedisTopology =
  | { readonly kind: 'single'; readonly url: string }
  | ({ readonly kind: 'cluster'; readonly nodes: readonly RedisNodeAddress[] } & RedisCredentials)
  | ({
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisNodeAddress[];
      /** The name under which the Sentinels monitor the primary. */
      readonly masterName: string;
      readonly sentinelPassword: string | undefined;
    } & RedisCredentials);
