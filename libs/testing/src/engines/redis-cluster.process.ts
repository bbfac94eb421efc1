import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { EngineProcess } from './engine-process';
import { freeLoopbackPortRange } from './loopback-port.util';

const CLUSTER_BUS_OFFSET = 10_000;
const NODE_COUNT = 6;

export interface RedisClusterOptions {
  /** How long a node may be silent before the others fail it over (redis.conf cluster-node-timeout). */
  nodeTimeoutMs?: number;
}

interface ClusterNodeLine {
  id: string;
  port: number;
  role: 'master' | 'slave';
  failed: boolean;
  primaryId: string | undefined;
  slotRanges: number;
  slots: Array<[number, number]>;
}

/**
 * A Redis Cluster of three primaries and three replicas on loopback, started by a test: six
 * `redis-server --cluster-enabled yes` processes without persistence, joined by `redis-cli --cluster
 * create … --cluster-replicas 1`. A primary can be SIGKILLed; its replica takes its slots over after the
 * node timeout.
 */
export class RedisClusterProcess {
  private constructor(
    readonly ports: readonly number[],
    private readonly directory: string,
    private readonly nodes: Map<number, EngineProcess>,
  ) {}

  static async start(options: RedisClusterOptions = {}): Promise<RedisClusterProcess> {
    const base = await freeLoopbackPortRange(NODE_COUNT, CLUSTER_BUS_OFFSET);
    const ports = Array.from({ length: NODE_COUNT }, (_, index) => base + index);
    const directory = mkdtempSync(join(tmpdir(), 'gw-redis-cluster-'));
    const nodes = new Map<number, EngineProcess>();
    for (const port of ports) {
      nodes.set(
        port,
        EngineProcess.start('redis-server', 'redis-server', [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(directory, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          String(options.nodeTimeoutMs ?? 2000),
          // A replica fails its primary over however long ago it last heard from it (the default
          // refuses when that is more than ten node timeouts, as after a slow first sync).
          '--cluster-replica-validity-factor',
          '0',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          directory,
        ]),
      );
    }
    const cluster = new RedisClusterProcess(ports, directory, nodes);
    try {
      await Promise.all(ports.map((port) => cluster.untilAnswering(port)));
      const created = spawnSync(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...ports.map((port) => `127.0.0.1:${port}`),
          '--cluster-replicas',
          '1',
          '--cluster-yes',
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      if (created.status !== 0)
        throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
      await cluster.untilHealthy();
      await cluster.untilReplicasInSync();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** REDIS_CLUSTER_NODES for the processes under test. */
  get seedNodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** The ports of the running primaries that serve slots. */
  async primaryPorts(): Promise<number[]> {
    const lines = await this.nodeLines();
    return lines
      .filter((line) => line.role === 'master' && !line.failed && line.slotRanges > 0)
      .map((line) => line.port);
  }

  /** The port of the live primary that serves `key`'s hash slot. */
  async primaryPortOf(key: string): Promise<number> {
    const live = [...this.nodes.entries()].find(([, node]) => node.running);
    if (!live) throw new Error('no cluster node is running');
    const slot = Number(await this.ask(live[0], ['CLUSTER', 'KEYSLOT', key]));
    const lines = await this.nodeLines();
    const owner = lines.find(
      (line) =>
        line.role === 'master' && !line.failed && line.slots.some(([from, to]) => slot >= from && slot <= to),
    );
    if (!owner) throw new Error(`no live primary serves slot ${slot}`);
    return owner.port;
  }

  /**
   * SIGKILLs the primary at `port` (a crash: no failover handshake) and resolves once its replica
   * serves its slots and the cluster is healthy again; answers how long that took.
   */
  async killPrimary(port: number, timeoutMs = 30_000): Promise<number> {
    const startedAt = Date.now();
    const node = this.nodes.get(port);
    if (!node) throw new Error(`no cluster node on port ${port}`);
    await node.stop('SIGKILL');
    await this.untilHealthy(timeoutMs, port);
    return Date.now() - startedAt;
  }

  /** Resolves once every slot is served by a live primary (cluster_state:ok on every live node). */
  async untilHealthy(timeoutMs = 30_000, deadPort?: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.healthy(deadPort)) return;
      if (Date.now() > deadline) {
        throw new Error(`the Redis Cluster did not become healthy in ${timeoutMs} ms: ${this.describe()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.nodes.values()].map((node) => node.stop('SIGKILL')));
    rmSync(this.directory, { recursive: true, force: true });
  }

  describe(): string {
    return [...this.nodes.values()].map((node) => node.describe()).join('\n');
  }

  /** Resolves once every replica has finished its first sync with its primary (it could not take over before). */
  private async untilReplicasInSync(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const replication = await Promise.all(
        this.ports.map((port) => this.ask(port, ['INFO', 'replication'])),
      );
      const replicas = replication.map(String).filter((info) => info.includes('role:slave'));
      if (
        replicas.length === NODE_COUNT / 2 &&
        replicas.every((info) => info.includes('master_link_status:up'))
      ) {
        return;
      }
      if (Date.now() > deadline) throw new Error(`the replicas did not sync in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async healthy(deadPort?: number): Promise<boolean> {
    const live = [...this.nodes.entries()].filter(([, node]) => node.running).map(([port]) => port);
    const states = await Promise.all(live.map((port) => this.ask(port, ['CLUSTER', 'INFO']).catch(() => '')));
    if (!states.every((info) => String(info).includes('cluster_state:ok'))) return false;
    if (deadPort === undefined) return true;
    const lines = await this.nodeLines();
    return !lines.some((line) => line.port === deadPort && line.role === 'master' && line.slotRanges > 0);
  }

  private async nodeLines(): Promise<ClusterNodeLine[]> {
    const live = [...this.nodes.entries()].find(([, node]) => node.running);
    if (!live) return [];
    const text = String(await this.ask(live[0], ['CLUSTER', 'NODES']));
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [id, address, flags, primaryId, , , , , ...slots] = line.split(' ');
        return {
          id,
          port: Number(address.split('@')[0].split(':').pop()),
          role: flags.includes('master') ? 'master' : 'slave',
          failed: flags.includes('fail'),
          primaryId: primaryId === '-' ? undefined : primaryId,
          slotRanges: slots.length,
          slots: slots
            .filter((range) => !range.startsWith('['))
            .map((range) => {
              const [from, to] = range.split('-').map(Number);
              return [from, to ?? from] as [number, number];
            }),
        } satisfies ClusterNodeLine;
      });
  }

  private async untilAnswering(port: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if ((await this.ask(port, ['PING']).catch(() => '')) === 'PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start: ${this.describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** One command on one node, over a connection of its own that never waits for a dead node. */
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
