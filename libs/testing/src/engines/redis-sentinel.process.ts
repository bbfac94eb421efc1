import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { EngineProcess } from './engine-process';
import { freeLoopbackPortRange } from './loopback-port.util';

export const SENTINEL_MASTER_NAME = 'gateway-primary';

/**
 * A primary, its replica and one Sentinel (quorum 1) on loopback, started by a test, without
 * persistence. Killing the primary makes the Sentinel promote the replica after about a second.
 */
export class RedisSentinelProcess {
  private constructor(
    readonly primaryPort: number,
    readonly replicaPort: number,
    readonly sentinelPort: number,
    private readonly directory: string,
    private readonly processes: Map<number, EngineProcess>,
  ) {}

  static async start(): Promise<RedisSentinelProcess> {
    const base = await freeLoopbackPortRange(3);
    const [primaryPort, replicaPort, sentinelPort] = [base, base + 1, base + 2];
    const directory = mkdtempSync(join(tmpdir(), 'gw-redis-sentinel-'));
    const server = (port: number, extra: string[] = []) =>
      EngineProcess.start('redis-server', 'redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        directory,
        ...extra,
      ]);
    const sentinelConfig = join(directory, 'sentinel.conf');
    writeFileSync(
      sentinelConfig,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${directory}`,
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${primaryPort} 1`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 5000`,
        '',
      ].join('\n'),
    );
    const processes = new Map<number, EngineProcess>([
      [primaryPort, server(primaryPort)],
      [replicaPort, server(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)])],
      [sentinelPort, EngineProcess.start('redis-sentinel', 'redis-server', [sentinelConfig, '--sentinel'])],
    ]);
    const deployment = new RedisSentinelProcess(primaryPort, replicaPort, sentinelPort, directory, processes);
    try {
      await deployment.until(async () =>
        (await deployment.replicationOf(replicaPort)).includes('master_link_status:up'),
      );
      await deployment.until(async () => (await deployment.currentPrimaryPort()) === primaryPort);
      // The Sentinel learns of the replica from the primary; one it does not know it cannot promote.
      await deployment.until(async () => {
        const replicas = await deployment.ask(sentinelPort, ['SENTINEL', 'replicas', SENTINEL_MASTER_NAME]);
        return JSON.stringify(replicas).includes(`127.0.0.1:${replicaPort}`);
      });
    } catch (error) {
      await deployment.stop();
      throw error;
    }
    return deployment;
  }

  /** REDIS_SENTINELS for the processes under test. */
  get sentinels(): string {
    return `127.0.0.1:${this.sentinelPort}`;
  }

  /** SIGKILLs the primary; resolves once the Sentinel names the replica primary, with how long that took. */
  async killPrimary(): Promise<number> {
    const startedAt = Date.now();
    await this.processes.get(this.primaryPort)?.stop('SIGKILL');
    await this.until(async () => (await this.currentPrimaryPort()) === this.replicaPort, 30_000);
    return Date.now() - startedAt;
  }

  /** The primary's port as the Sentinel answers it. */
  async currentPrimaryPort(): Promise<number | undefined> {
    const reply = await this.ask(this.sentinelPort, [
      'SENTINEL',
      'get-master-addr-by-name',
      SENTINEL_MASTER_NAME,
    ]);
    return Array.isArray(reply) ? Number(reply[1]) : undefined;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.values()].map((process) => process.stop('SIGKILL')));
    rmSync(this.directory, { recursive: true, force: true });
  }

  private replicationOf(port: number): Promise<string> {
    return this.ask(port, ['INFO', 'replication']).then(String, () => '');
  }

  private async until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) {
        throw new Error(
          `Redis Sentinel deployment not ready in ${timeoutMs} ms: ${[...this.processes.values()].map((p) => p.describe()).join('\n')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async ask(port: number, command: [string, ...string[]]): Promise<unknown> {
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(...command);
    } finally {
      client.disconnect();
    }
  }
}
