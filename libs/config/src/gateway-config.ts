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
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly redisUrl: string;
  /** Every Redis key and pub/sub channel name starts with this. */
  readonly redisPrefix: string;
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
  readonly metricsEnabled: boolean;
  /**
   * How much the V8 heap may grow past what the last full collection kept alive before the next
   * one (percent); 0 keeps V8's own policy, which lets a busy process grow to four times that.
   */
  readonly heapGrowingPercent: number;
}
