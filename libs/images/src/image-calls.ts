import type {
  AdapterContext,
  GeneratedImage,
  ImagePriceTier,
  ImageResult,
  TaskCompleted,
  TaskOutput,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { toClientError, type ChannelCandidate } from '@gateway/routing';
import type { PlannedImages } from './image-planning';
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
 * One channel's attempt, as the failover makes it (withChannelFailover): it resolves only with
 * images, so that a failure can still fail over; an answer without a single image is the failure of
 * its first item, or an unavailable upstream. The synchronous routes and worker-image's image jobs
 * both attempt through it.
 */
export async function attemptImages(
  planned: PlannedImages | undefined,
  candidate: ChannelCandidate,
  context: AdapterContext,
  submissionKey: string,
  limits: TaskWaitLimits,
): Promise<ImageResult> {
  // The failover asks whether a candidate is served first: a candidate without a plan is never attempted.
  if (!planned) throw new GatewayError('internal', `No image plan for channel ${candidate.id}.`);
  const result = await makeImages(planned, candidate, context, submissionKey, limits);
  if (result.images.length === 0) {
    const itemFailure = result.itemErrors[0]?.failure;
    throw itemFailure
      ? toClientError(itemFailure)
      : new GatewayError('upstream_unavailable', 'The upstream answered without images.');
  }
  return result;
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
