import type { Channel, PrismaClient, Task } from '@gateway/db';
import type { AdapterContext } from '@gateway/providers-core';
import type { TaskChannelConnection, TaskChannelResolver } from './task-step.types';

/** Builds the adapter context (decrypted secret, HTTP client, clock, logger) for a channel row. */
export type ChannelConnector = (channel: Channel) => Promise<AdapterContext>;

/** Resolves a task's channel from its row; the connector turns the row into something callable. */
export class PrismaTaskChannelResolver implements TaskChannelResolver {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly connectChannel: ChannelConnector,
  ) {}

  async channelTypeOf(task: Task): Promise<string | undefined> {
    if (task.channelId === null) return undefined;
    const channel = await this.prisma.channel.findUnique({
      where: { id: task.channelId },
      select: { type: true },
    });
    return channel?.type;
  }

  async connect(task: Task): Promise<TaskChannelConnection> {
    const channel = task.channelId
      ? await this.prisma.channel.findUnique({ where: { id: task.channelId } })
      : null;
    if (!channel) throw new Error(`channel of task ${task.id} no longer exists`);
    return {
      context: await this.connectChannel(channel),
      upstreamModel: upstreamModelOf(channel, task.model),
    };
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
