import type { Channel, PrismaClient, Task } from '@gateway/db';
import { systemClock, type AdapterContext, type Clock } from '@gateway/providers-core';
import type { TaskChannelConnection, TaskChannelRef, TaskChannelResolver } from './task-step.types';

/** Builds the adapter context (decrypted secret, HTTP client, clock, logger) for a channel row. */
export type ChannelConnector = (channel: Channel) => Promise<AdapterContext>;

/**
 * How long a channel row read for one step serves the next ones: a worker steps thousands of tasks of
 * a handful of channels, and an operator's edit of a channel reaches running tasks within this.
 */
export const CHANNEL_ROW_TTL_MS = 5_000;

interface CachedChannel {
  channel: Channel | null;
  readAtMs: number;
  /** Built from this row once, when a step first needed it (decrypting the secret is not free). */
  context?: Promise<AdapterContext>;
}

/**
 * Resolves a task's channel from its row; the connector turns the row into something callable. Rows
 * and their contexts are kept for CHANNEL_ROW_TTL_MS, so a poll costs no channel query.
 */
export class PrismaTaskChannelResolver implements TaskChannelResolver {
  private readonly channels = new Map<string, CachedChannel>();

  constructor(
    private readonly prisma: Pick<PrismaClient, 'channel'>,
    private readonly connectChannel: ChannelConnector,
    private readonly clock: Clock = systemClock,
  ) {}

  async channelTypeOf(task: Pick<Task, 'channelId'>): Promise<string | undefined> {
    if (task.channelId === null) return undefined;
    return (await this.cachedChannel(task.channelId)).channel?.type;
  }

  async connect(task: TaskChannelRef): Promise<TaskChannelConnection> {
    const cached = task.channelId === null ? undefined : await this.cachedChannel(task.channelId);
    const channel = cached?.channel;
    if (!cached || !channel) throw new Error(`channel of task ${task.id} no longer exists`);
    if (!cached.context) {
      const context = this.connectChannel(channel);
      cached.context = context;
      // A row that could not be connected is tried again at the next step, not remembered as broken.
      context.catch(() => {
        if (cached.context === context) cached.context = undefined;
      });
    }
    return {
      context: await cached.context,
      upstreamModel: upstreamModelOf(channel, task.model),
      pollsPerSecond: channel.pollsPerSecond ?? undefined,
    };
  }

  private async cachedChannel(channelId: string): Promise<CachedChannel> {
    const nowMs = this.clock.now();
    const cached = this.channels.get(channelId);
    if (cached && nowMs - cached.readAtMs < CHANNEL_ROW_TTL_MS) return cached;
    const channel = await this.prisma.channel.findUnique({ where: { id: channelId } });
    const fresh: CachedChannel = { channel, readAtMs: nowMs };
    this.channels.set(channelId, fresh);
    return fresh;
  }
}

/** The channel's mapping of a public model name to the upstream's id; the name itself when unmapped. */
export function upstreamModelOf(channel: Pick<Channel, 'models'>, model: string): string {
  if (!Array.isArray(channel.models)) return model;
  for (const entry of channel.models) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    if (entry['model'] === model && typeof entry['upstreamModel'] === 'string') return entry['upstreamModel'];
  }
  return model;
}
