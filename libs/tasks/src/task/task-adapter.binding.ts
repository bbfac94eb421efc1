import type { Task } from '@gateway/db';
import { tracing } from '@gateway/observability';
import type { TaskAdapter, TaskAdapterContext } from '@gateway/providers-core';
import { tracedTaskAdapter } from './traced-task-adapter';
import type { TaskChannelResolver } from './task-step.types';

/** An adapter together with what calling the task's channel takes. */
export interface BoundTaskAdapter {
  adapter: TaskAdapter;
  context: TaskAdapterContext;
  upstreamModel: string;
  /** The channel's poll-rate ceiling (TaskChannelConnection.pollsPerSecond). */
  pollsPerSecond?: number;
}

/** The task adapter of the task's channel type and a context to call it with, or why there is none. */
export async function bindTaskAdapter(
  task: Pick<Task, 'id' | 'channelId' | 'model' | 'kind'>,
  adapters: ReadonlyMap<string, TaskAdapter>,
  channels: TaskChannelResolver,
): Promise<BoundTaskAdapter | string> {
  const channelType = await channels.channelTypeOf(task);
  if (channelType === undefined) return 'the channel of the task no longer exists';
  const adapter = adapters.get(channelType);
  if (!adapter) return `no asynchronous adapter for channel type ${channelType}`;
  const { context, upstreamModel, pollsPerSecond } = await channels.connect(task);
  return {
    // With tracing on, each upstream call of the step is a span of the task's trace.
    adapter: tracing.enabled ? tracedTaskAdapter(adapter, task, channelType) : adapter,
    context: { ...context, submissionKey: task.id },
    upstreamModel,
    pollsPerSecond,
  };
}
