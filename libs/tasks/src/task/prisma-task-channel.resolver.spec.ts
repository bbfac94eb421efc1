import type { Channel, PrismaClient, Task } from '@gateway/db';
import type { AdapterContext } from '@gateway/providers-core';
import {
  CHANNEL_ROW_TTL_MS,
  PrismaTaskChannelResolver,
  upstreamModelOf,
} from './prisma-task-channel.resolver';

describe('upstreamModelOf', () => {
  it('maps a model the channel renames', () => {
    const channel = { models: [{ model: 'gamma-2' }, { model: 'gamma-3', upstreamModel: 'g3-preview' }] };
    expect(upstreamModelOf(channel, 'gamma-3')).toBe('g3-preview');
  });

  it('keeps the public name when the channel offers it unmapped, or the mapping is malformed', () => {
    expect(upstreamModelOf({ models: [{ model: 'gamma-2' }] }, 'gamma-2')).toBe('gamma-2');
    expect(
      upstreamModelOf({ models: [null, 'gamma-2', { model: 'gamma-2', upstreamModel: 7 }] }, 'gamma-2'),
    ).toBe('gamma-2');
    expect(upstreamModelOf({ models: {} }, 'gamma-2')).toBe('gamma-2');
  });
});

describe('PrismaTaskChannelResolver', () => {
  const task = { id: 'video_1', channelId: 'chan_compat', model: 'delta-2' } as Task;
  const row = (baseUrl: string): Channel => ({
    id: 'chan_compat',
    type: 'compat',
    name: 'compat videos',
    baseUrl,
    secretCiphertext: 'unused',
    secretKeyVersion: 1,
    secretTail: '',
    models: [{ model: 'delta-2', upstreamModel: 'd2' }],
    settings: {},
    priority: 0,
    weight: 1,
    pollsPerSecond: null,
    status: 'enabled',
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });

  function resolverOver(rows: Array<Channel | null>) {
    const reads: string[] = [];
    const connected: string[] = [];
    const clock = { nowMs: 0, now: () => clock.nowMs };
    const prisma = {
      channel: {
        findUnique: async ({ where }: { where: { id: string } }) => {
          reads.push(where.id);
          return rows.shift() ?? null;
        },
      },
    } as unknown as Pick<PrismaClient, 'channel'>;
    let failNextConnect = false;
    const resolver = new PrismaTaskChannelResolver(
      prisma,
      async (channel) => {
        connected.push(channel.baseUrl);
        if (failNextConnect) {
          failNextConnect = false;
          throw new Error('secret does not decrypt');
        }
        return { channel: { baseUrl: channel.baseUrl } } as AdapterContext;
      },
      clock,
    );
    return { resolver, reads, connected, clock, failConnectOnce: () => (failNextConnect = true) };
  }

  it('reads a channel row and connects it once for the steps within the time it is kept', async () => {
    const { resolver, reads, connected } = resolverOver([row('http://one.test')]);

    for (let step = 0; step < 3; step += 1) {
      expect(await resolver.channelTypeOf(task)).toBe('compat');
      const connection = await resolver.connect(task);
      expect(connection.upstreamModel).toBe('d2');
      expect(connection.context.channel.baseUrl).toBe('http://one.test');
    }

    expect(reads).toEqual(['chan_compat']);
    expect(connected).toEqual(['http://one.test']);
  });

  it('reads the row again once it is older than the time it is kept, and sees an edit or a deletion', async () => {
    const { resolver, reads, clock } = resolverOver([row('http://one.test'), row('http://two.test'), null]);
    await resolver.connect(task);

    clock.nowMs += CHANNEL_ROW_TTL_MS;
    expect((await resolver.connect(task)).context.channel.baseUrl).toBe('http://two.test');
    clock.nowMs += CHANNEL_ROW_TTL_MS;
    expect(await resolver.channelTypeOf(task)).toBeUndefined();
    await expect(resolver.connect(task)).rejects.toThrow('channel of task video_1 no longer exists');
    expect(reads).toHaveLength(3);
  });

  it('does not remember a row that failed to connect', async () => {
    const { resolver, connected, failConnectOnce } = resolverOver([row('http://one.test')]);
    failConnectOnce();

    await expect(resolver.connect(task)).rejects.toThrow('secret does not decrypt');
    expect((await resolver.connect(task)).context.channel.baseUrl).toBe('http://one.test');
    expect(connected).toHaveLength(2);
  });
});
