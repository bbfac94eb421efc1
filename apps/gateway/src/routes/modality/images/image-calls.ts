import type {
  AdapterContext,
  GeneratedImage,
  ImagePriceTier,
  ImageResult,
  TaskCompleted,
  TaskOutput,
} from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import type { PlannedImages } from './image-admission';
import { waitForTask, type TaskWaitLimits } from './image-task.waiter';

/**
 * One attempt on one channel: the planned call with the channel's upstream model, made in the same
 * call or as an upstream task waited for within the request. `submissionKey` is the request id, so
 * an upstream that takes a client reference can find the task again.
 */
export async function makeImages(
  planned: PlannedImages,
  candidate: ChannelCandidate,
  context: AdapterContext,
  submissionKey: string,
  limits: TaskWaitLimits,
): Promise<ImageResult> {
  const call = { ...planned.call, upstreamModel: candidate.upstreamModel };
  const { invocation } = planned;
  if (invocation.mode === 'synchronous') return invocation.call(call, context);
  const taskCall = invocation.toTask(call, context);
  const completed = await waitForTask(invocation.tasks, taskCall, { ...context, submissionKey }, limits);
  return fromCompletedTask(completed, planned.priceTier);
}

/**
 * A task's outputs are the images (their bytes when the wire sent them inline: nothing to download);
 * without a reported count, they were made at the planned tier.
 */
function fromCompletedTask(completed: TaskCompleted, tier: ImagePriceTier): ImageResult {
  return {
    images: completed.outputs.map(toGeneratedImage),
    itemErrors: [],
    usage: {
      ...completed.usage,
      images: completed.usage?.images ?? { count: completed.outputs.length, ...tier },
    },
    warnings: completed.warnings,
  };
}

/** The delivery reads the type from the bytes; the declared one is only a default. */
function toGeneratedImage(output: TaskOutput): GeneratedImage {
  const contentType = output.contentType ?? 'application/octet-stream';
  if (output.url === undefined) return { kind: 'bytes', bytes: output.bytes, contentType };
  return output.bytes
    ? { kind: 'bytes', bytes: output.bytes, contentType }
    : { kind: 'url', url: output.url };
}
