import { Prisma, type PrismaClient, type Task } from '@gateway/db';
import { errorMessageOf } from '@gateway/observability';
import type { Clock, JsonHandle, TaskAdapter } from '@gateway/providers-core';
import type { ChannelConnector } from '../task/prisma-task-channel.resolver';
import type { TaskStepProcessor } from '../task/task-step.processor';
import type { TaskStepLogger } from '../task/task-step.types';

/** The kind of the tasks polled here (`tasks.kind`); worker-video runs them. */
export const MUSIC_TASK_KIND = 'music';
/**
 * Open tasks read per cycle, oldest first: a bound on one cycle's memory and on one batch query, far
 * above what a channel has open at once; any beyond wait for the next cycle or their deadline.
 */
const MAX_TASKS_PER_CYCLE = 2_000;

export interface MusicBatchPollerDependencies {
  prisma: Pick<PrismaClient, 'task' | 'channel'>;
  /** Records each answer as a step would: compare-and-swap transitions, settlement by the winner. */
  processor: Pick<TaskStepProcessor, 'recordPoll'>;
  adapters: ReadonlyMap<string, TaskAdapter>;
  connectChannel: ChannelConnector;
  clock: Clock;
  logger: TaskStepLogger;
}

/** What one cycle did, for its job's result and the tests. */
export interface MusicPollCycle {
  /** Channels asked (one batch query each). */
  channels: number;
  /** Open tasks asked about. */
  tasks: number;
  /** Channels whose batch query failed; their tasks are asked again at the next cycle. */
  failedChannels: number;
}

/**
 * One poll cycle of the music tasks: every open, submitted music task not past its deadline, grouped
 * by channel, and one batch query per channel (TaskAdapter.pollMany) whatever the number of tasks.
 * Each answer goes through the step processor's recordPoll, so each task ends by one compare-and-swap
 * and its hold settles once, whoever else (the deadline step, a second worker's cycle) races it. A
 * task past its deadline is its step's to reconcile; one not submitted yet, its step's to submit.
 */
export class MusicBatchPoller {
  constructor(private readonly deps: MusicBatchPollerDependencies) {}

  async runCycle(): Promise<MusicPollCycle> {
    const open = await this.deps.prisma.task.findMany({
      where: {
        kind: MUSIC_TASK_KIND,
        status: 'processing',
        upstreamHandle: { not: Prisma.DbNull },
        deadlineAt: { gt: new Date(this.deps.clock.now()) },
        channelId: { not: null },
      },
      orderBy: { createdAt: 'asc' },
      take: MAX_TASKS_PER_CYCLE,
    });
    const byChannel = new Map<string, Task[]>();
    for (const task of open) {
      const channelId = task.channelId as string;
      byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), task]);
    }
    const polled = await Promise.all(
      [...byChannel].map(([channelId, tasks]) => this.pollChannel(channelId, tasks)),
    );
    return {
      channels: byChannel.size,
      tasks: open.length,
      failedChannels: polled.filter((ok) => !ok).length,
    };
  }

  /** One batch query for the channel's tasks, then each answer recorded; false when the query failed. */
  private async pollChannel(channelId: string, tasks: Task[]): Promise<boolean> {
    const channel = await this.deps.prisma.channel.findUnique({ where: { id: channelId } });
    const adapter = channel ? this.deps.adapters.get(channel.type) : undefined;
    if (!channel || !adapter?.pollMany) {
      // Nothing to ask: the tasks' deadline step fails and releases them.
      this.deps.logger.warn(
        { channelId, tasks: tasks.length },
        'music tasks on a channel that cannot batch-poll',
      );
      return false;
    }
    let results;
    try {
      const context = await this.deps.connectChannel(channel);
      results = await adapter.pollMany(
        tasks.map((task) => task.upstreamHandle as JsonHandle),
        context,
      );
    } catch (error) {
      // The batch said nothing about any one task: all of them are asked again next cycle.
      this.deps.logger.warn({ channelId, error: errorMessageOf(error) }, 'music batch poll failed');
      return false;
    }
    for (const [index, task] of tasks.entries()) {
      const result = results[index];
      if (result) await this.deps.processor.recordPoll(task, result);
    }
    return true;
  }
}
