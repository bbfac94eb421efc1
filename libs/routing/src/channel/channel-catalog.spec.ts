import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { encryptSecret } from '../secret/channel-secret.cipher';
import { ChannelCatalog } from './channel-catalog';
import type { ChannelRow, ChannelRowSource } from './channel-row.source';

const MASTER_KEY = randomBytes(32);

function channelRow(id: string, model: string): ChannelRow {
  const encrypted = encryptSecret(`secret-of-${id}`, { key: MASTER_KEY, version: 1 });
  return {
    id,
    type: 'compat',
    name: id,
    baseUrl: 'http://127.0.0.1:9',
    secretCiphertext: encrypted.ciphertext,
    secretKeyVersion: 1,
    models: [{ model }],
    settings: {},
    priority: 0,
    weight: 1,
  };
}

/** A channel table whose reads the test answers one by one, with the rows current at answer time. */
class ControlledChannelTable implements ChannelRowSource {
  rows: ChannelRow[] = [];
  reads = 0;
  private readonly waiting: Array<() => void> = [];

  enabledChannels(): Promise<ChannelRow[]> {
    this.reads += 1;
    return new Promise((resolve) => this.waiting.push(() => resolve([...this.rows])));
  }

  get pendingReads(): number {
    return this.waiting.length;
  }

  answerNext(): void {
    this.waiting.shift()?.();
  }
}

/** Enough of a Redis connection for pub/sub within one process. */
class LoopbackRedis extends EventEmitter {
  status = 'ready';
  async subscribe(): Promise<number> {
    return 1;
  }
  async unsubscribe(): Promise<number> {
    return 0;
  }
  async publish(channel: string, message: string): Promise<number> {
    this.emit('message', channel, message);
    return 1;
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ChannelCatalog', () => {
  let table: ControlledChannelTable;
  let redis: LoopbackRedis;
  let catalog: ChannelCatalog;

  beforeEach(async () => {
    table = new ControlledChannelTable();
    redis = new LoopbackRedis();
    const connection = redis as unknown as Redis;
    catalog = new ChannelCatalog(table, connection, connection, {
      channelName: 'changes',
      keyring: new Map([[1, MASTER_KEY]]),
      refreshIntervalMs: 60_000,
      logger: { warn: () => undefined },
    });
    const started = catalog.start();
    await flush();
    table.answerNext();
    await started;
  });

  afterEach(() => catalog.stop());

  it('answers refreshes requested during a running one with one more read that sees later changes', async () => {
    const running = catalog.refresh();
    await flush();
    table.rows = [channelRow('ch_late', 'img-1')];
    const firstQueued = catalog.refresh();
    const secondQueued = catalog.refresh();

    table.answerNext();
    await running;
    await flush();
    expect(table.pendingReads).toBe(1);
    table.answerNext();
    await Promise.all([firstQueued, secondQueued]);

    expect(table.reads).toBe(3);
    expect(catalog.candidatesFor('img-1').map((c) => c.id)).toEqual(['ch_late']);
  });

  it('does not reload a second time on its own announcement', async () => {
    table.rows = [channelRow('ch_new', 'img-2')];

    const published = catalog.publishChange();
    await flush();
    table.answerNext();
    await published;
    await flush();

    expect(table.reads).toBe(2);
    expect(table.pendingReads).toBe(0);
    expect(catalog.offeredModels()).toEqual(['img-2']);
  });

  it('reloads on an announcement from another instance', async () => {
    table.rows = [channelRow('ch_elsewhere', 'draw-3')];

    await redis.publish('changes', 'another-instance');
    await flush();
    table.answerNext();
    await flush();

    expect(catalog.offeredModels()).toEqual(['draw-3']);
  });
});
