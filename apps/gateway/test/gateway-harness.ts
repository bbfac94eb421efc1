import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Pool, type QueryResultRow } from 'pg';
import { HoldLeases } from '@gateway/billing';
import { LedgerAudit, type LedgerAuditResult } from '@gateway/billing/ledger-audit';
import { loadConfig, type GatewayConfig } from '@gateway/config';
import { createPrismaClient, type PrismaClient } from '@gateway/db';
import { startSimulator } from '@gateway/simulators';
import { createTestDatabase, logsDirectory, secretsDirectory, type TestDatabase } from '@gateway/testing';
import { createGatewayApp, type GatewayApp } from '../src/bootstrap';
import type { InfrastructureOptions } from '../src/platform/infrastructure/infrastructure.module';
import { SettlementRecorder } from '../src/pipeline/settlement-recorder';

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface GatewayInstance {
  url: string;
  app: GatewayApp;
  close(): Promise<void>;
}

/** A request log row's outcome and money, as the image and task tests check them. */
export interface RequestLogOutcome {
  http_status: number;
  end_reason: string;
  image_count: number;
  cost_micros: string;
}

export interface TextDemo {
  key: string;
  keyId: string;
  accountId: string;
  kappaChannelId: string;
  compatChannelId: string;
}

/** The native generate route of the test model, and a minimal valid body for it. */
export const NATIVE_GENERATE_PATH = '/v1beta/models/kappa-2.0-flash:generateContent';
export const NATIVE_HELLO_BODY = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

/** Prices of the test models, in micros per million tokens. */
export const TEST_PRICES = [
  {
    model: 'kappa-2.0-flash',
    inputPerMillion: '1000000',
    outputPerMillion: '2000000',
    defaultMaxOutputTokens: 1000,
  },
  {
    model: 'chat-fast',
    inputPerMillion: '1000000',
    outputPerMillion: '2000000',
    defaultMaxOutputTokens: 1000,
  },
  { model: 'kappa-3-pro-image-preview', inputPerMillion: '1000000', outputPerMillion: '2000000' },
  { model: 'kappa-2.5-flash-image-preview', inputPerMillion: '1000000', outputPerMillion: '2000000' },
];

/** Per-image prices of the beta image models, in micros by resolution tier. */
export const BETA_TEST_PRICES = ['beta-4.0', 'beta-4.5'].map((model) => ({
  model,
  perImage: { '1k': '20000', '2k': '40000', '4k': '80000' },
}));

/**
 * A real gateway in this process, listening on a loopback port, on its own fresh database and Redis
 * prefix, in front of an in-process simulator. Log lines are kept so that tests can scan them.
 */
export class GatewayHarness {
  readonly logs: string[] = [];
  private readonly instances: GatewayInstance[] = [];
  private readonly runFileName = `${randomBytes(6).toString('hex')}.txt`;
  private databasePool: Pool | undefined;
  private prisma: PrismaClient | undefined;
  /**
   * The run's log file of this harness, opened once: a gateway writes a line per request, and a
   * mkdir, open and close per line were a few per cent of the CPU of a file that sends thousands.
   */
  private logFile: number | undefined;

  private constructor(
    readonly config: GatewayConfig,
    readonly simulatorUrl: string,
    private readonly closeSimulator: () => Promise<void>,
    private readonly database: TestDatabase,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<GatewayHarness> {
    const [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    const config = loadConfig({
      DATABASE_URL: database.url,
      REDIS_PREFIX: `gwtest-${randomBytes(6).toString('hex')}`,
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    });
    const harness = new GatewayHarness(config, simulator.url, () => simulator.close(), database);
    await harness.startInstance();
    return harness;
  }

  get url(): string {
    return this.instances[0].url;
  }

  /** The first instance's application. */
  get app(): GatewayApp {
    return this.instances[0].app;
  }

  get adminToken(): string {
    return this.config.adminToken;
  }

  /** The database's name on the server, for outages (`whileDatabaseRefusesConnections`). */
  get databaseName(): string {
    return this.database.name;
  }

  /**
   * An instance that may fetch result URLs from the simulator, whose loopback address the SSRF-safe
   * fetcher refuses otherwise.
   */
  startSimulatorTrustingInstance(): Promise<GatewayInstance> {
    return this.startInstance({ ssrfAllowHosts: [new URL(this.simulatorUrl).host] });
  }

  /**
   * Another gateway process-equivalent on the same database and Redis: a second instance, configured
   * like the first except for `overrides`.
   */
  async startInstance(
    overrides: Partial<GatewayConfig> = {},
    infrastructure: Pick<InfrastructureOptions, 'clock'> = {},
  ): Promise<GatewayInstance> {
    const app = await createGatewayApp(Object.freeze({ ...this.config, ...overrides }), {
      ...infrastructure,
      logDestination: {
        write: (line: string) => {
          this.logs.push(line);
          this.logFile ??= openSync(this.runFile('logs'), 'a');
          writeSync(this.logFile, line);
        },
      },
    });
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = app.fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const instance = { url: `http://127.0.0.1:${port}`, app, close: () => app.shutdown() };
    this.instances.push(instance);
    return instance;
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      rawBody?: string | Buffer;
      headers?: Record<string, string>;
      baseUrl?: string;
    } = {},
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${options.baseUrl ?? this.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Streams and plain text stay as text.
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
    return this.request<T>(method, path, { body, headers: { authorization: `Bearer ${this.adminToken}` } });
  }

  async adminOk<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.admin<T>(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  }

  async createAccount(creditMicros: bigint, overdraftLimitMicros = 0n): Promise<string> {
    const account = await this.adminOk<{ id: string }>('POST', '/admin/accounts', {
      name: `account-${randomBytes(3).toString('hex')}`,
      overdraftLimitMicros: overdraftLimitMicros.toString(),
    });
    if (creditMicros > 0n) {
      await this.adminOk('POST', `/admin/accounts/${account.id}/credits`, {
        amountMicros: creditMicros.toString(),
        idempotencyKey: `credit-${account.id}`,
      });
    }
    return account.id;
  }

  async createKey(
    accountId: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ key: string; id: string }> {
    const created = await this.adminOk<{ key: string; id: string }>('POST', '/admin/keys', {
      accountId,
      name: 'test key',
      ...extra,
    });
    this.rememberSecret(created.key);
    return created;
  }

  /** Secrets handed out in this run; the integration teardown scans every gateway log for them. */
  rememberSecret(secret: string): void {
    appendFileSync(this.runFile('secrets'), `${secret}\n`);
  }

  private runFile(kind: 'logs' | 'secrets'): string {
    const directory = kind === 'logs' ? logsDirectory : secretsDirectory;
    mkdirSync(directory, { recursive: true });
    return join(directory, this.runFileName);
  }

  async createChannel(channel: Record<string, unknown>): Promise<string> {
    if (typeof channel['secret'] === 'string') this.rememberSecret(channel['secret']);
    const created = await this.adminOk<{ id: string }>('POST', '/admin/channels', {
      baseUrl: this.simulatorUrl,
      priority: 0,
      weight: 1,
      ...channel,
    });
    return created.id;
  }

  /** A kappa channel (priority 10) and a compat channel (priority 0) for the test models, prices, an account and a key. */
  async seedTextDemo(creditMicros = 1_000_000_000n): Promise<TextDemo> {
    await this.adminOk('PUT', '/admin/prices', { prices: TEST_PRICES });
    const kappaChannelId = await this.createChannel({
      type: 'kappa',
      name: `kappa-${randomBytes(3).toString('hex')}`,
      secret: 'sim-kappa-key',
      models: [
        { model: 'kappa-2.0-flash' },
        { model: 'kappa-3-pro-image-preview' },
        { model: 'kappa-2.5-flash-image-preview' },
      ],
      priority: 10,
    });
    const compatChannelId = await this.createChannel({
      type: 'compat',
      name: `compat-${randomBytes(3).toString('hex')}`,
      secret: 'sim-compat-key',
      models: [{ model: 'chat-fast' }],
    });
    const accountId = await this.createAccount(creditMicros);
    const { key, id } = await this.createKey(accountId);
    return { key, keyId: id, accountId, kappaChannelId, compatChannelId };
  }

  /**
   * A beta channel for the beta image models (a signed `AccessKey|SecretKey` channel unless `secret`
   * is a relay key), with their per-image prices by resolution tier (BETA_TEST_PRICES).
   */
  async seedBetaChannel(
    options: { secret?: string; models?: string[]; priority?: number; baseUrl?: string } = {},
  ): Promise<string> {
    await this.adminOk('PUT', '/admin/prices', { prices: BETA_TEST_PRICES });
    return this.createChannel({
      type: 'beta',
      name: `beta-${randomBytes(3).toString('hex')}`,
      secret: options.secret ?? 'sim-beta-ak|sim-beta-sk',
      models: (options.models ?? ['beta-4.0', 'beta-4.5']).map((model) => ({ model })),
      priority: options.priority ?? 0,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
  }

  /** A channel of one image model, priced per image whatever the tier. */
  async seedImageChannel(options: {
    type: string;
    model: string;
    secret: string;
    perImageMicros: bigint;
  }): Promise<string> {
    await this.adminOk('PUT', '/admin/prices', {
      prices: [{ model: options.model, perImage: { default: options.perImageMicros.toString() } }],
    });
    return this.createChannel({
      type: options.type,
      name: `${options.type}-images-${randomBytes(3).toString('hex')}`,
      secret: options.secret,
      models: [{ model: options.model }],
    });
  }

  /** Reads the harness database directly, to check what the gateway wrote. */
  async query<T extends QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
    return (await this.pool().query<T>(sql, values)).rows;
  }

  private pool(): Pool {
    if (!this.databasePool) {
      this.databasePool = new Pool({ connectionString: this.config.databaseUrl, max: 2 });
      // An idle connection that a database outage test terminates is dropped; the next query opens another.
      this.databasePool.on('error', () => undefined);
    }
    return this.databasePool;
  }

  /** The request logs of a key, oldest first. */
  requestLogsOf(keyId: string): Promise<RequestLogOutcome[]> {
    return this.query<RequestLogOutcome>(
      'select http_status, end_reason, image_count, cost_micros::text from request_logs where key_id = $1 order by id',
      [keyId],
    );
  }

  /** An account's books as they stand: balance against ledger, money held, holds and leases open. */
  auditAccount(accountId: string): Promise<LedgerAuditResult> {
    this.prisma ??= createPrismaClient(this.pool());
    return new LedgerAudit(this.prisma).auditAccount(accountId);
  }

  /**
   * Settles everything, then checks that the account's books balance with no money held (nor any
   * hold open), and returns its audit (balance, captures).
   */
  async settledBooks(accountId: string): Promise<LedgerAuditResult> {
    await this.settled();
    const books = await this.auditAccount(accountId);
    expect(books.balanced).toBe(true);
    expect(books.held).toBe(0n);
    expect(books.openHolds).toBe(0n);
    return books;
  }

  /** Money that moved for an account: its ledger amounts by kind (credit, capture). */
  async ledgerTotals(accountId: string): Promise<Record<string, bigint>> {
    const rows = await this.query<{ kind: string; total: string }>(
      'select kind, sum(amount)::text as total from ledger_entries where account_id = $1 group by kind',
      [accountId],
    );
    const totals: Record<string, bigint> = { capture: 0n, credit: 0n };
    for (const row of rows) totals[row.kind] = BigInt(row.total);
    return totals;
  }

  /** Waits until every settlement and log recorded so far has been written, and idle leases closed. */
  async settled(): Promise<void> {
    for (const instance of this.instances) {
      await instance.app.app.get(SettlementRecorder).drain();
      // Leases with no hold open are closed, as the idle sweep would do a little later.
      await instance.app.app.get(HoldLeases).closeIdle(0);
    }
  }

  async close(): Promise<void> {
    for (const instance of this.instances.reverse()) await instance.close();
    await this.prisma?.$disconnect();
    await this.databasePool?.end();
    await this.closeSimulator();
    await this.database.drop();
    // A line written after this (a late timer of a closed instance) opens the file again.
    if (this.logFile !== undefined) closeSync(this.logFile);
    this.logFile = undefined;
  }
}
