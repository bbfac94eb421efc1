import {
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskPending,
  type TaskPollResult,
  type UpstreamFailure,
  type VideoTaskHandle,
} from '@gateway/providers-core';
import { isEtaSensitiveContentCode } from '../eta-error.classifier';
import { thetaTokenUsageOf } from '../theta2/theta-token-usage.util';

/** Statuses of a task still on its way, and where it is (§6.2). */
const PENDING_PHASES: Readonly<Record<string, TaskPending['phase']>> = {
  queued: 'queued',
  running: 'processing',
};

/** Terminal statuses without a result other than `failed`, and why. */
const ENDED_WITHOUT_RESULT: Readonly<Record<string, Pick<UpstreamFailure, 'kind' | 'message'>>> = {
  // The gateway's own cancel, seen by a poll racing the canceller, or someone else's (TaskFailed.cancelled).
  cancelled: { kind: 'bad_request', message: 'the upstream task was cancelled' },
  expired: { kind: 'timeout', message: 'the upstream task expired before it finished' },
};

/** Parameter codes of a failed task blame the request; any other failure may pass on another run. */
const REQUEST_FAULT_CODE = /^(InvalidParameter|MissingParameter)/;

/**
 * A query answer (§6.2) as a poll result: `succeeded` with `content.video_url` is the video, billed at
 * the `duration` and `resolution` the query reports (else the submitted ones); `failed`, `cancelled`
 * and `expired` end the task; a status outside the table is logged and read as pending (the task's
 * deadline bounds it).
 */
export function fromThetaTask(
  task: JsonObject,
  handle: VideoTaskHandle,
  logger: AdapterLogger,
): TaskPollResult {
  const status = typeof task.status === 'string' ? task.status : undefined;
  if (status !== undefined && Object.hasOwn(PENDING_PHASES, status)) {
    return { state: 'pending', phase: PENDING_PHASES[status] };
  }
  if (status === 'succeeded') return succeeded(task, handle);
  if (status === 'failed') return { state: 'failed', failure: failureOf(task.error) };
  if (status !== undefined && Object.hasOwn(ENDED_WITHOUT_RESULT, status)) {
    return {
      state: 'failed',
      failure: { ...ENDED_WITHOUT_RESULT[status], retryable: false, upstreamCode: status },
      ...(status === 'cancelled' && { cancelled: true }),
    };
  }
  logger.warn('theta task status not in the status table; still pending', { status });
  return { state: 'pending' };
}

function succeeded(task: JsonObject, handle: VideoTaskHandle): TaskPollResult {
  const videoUrl = isJsonObject(task.content) ? task.content.video_url : undefined;
  if (typeof videoUrl !== 'string' || videoUrl === '') {
    return failedForMissingOutput(
      'succeeded',
      'the upstream reported the task succeeded without a video_url',
    );
  }
  const seconds =
    typeof task.duration === 'number' && Number.isFinite(task.duration) && task.duration > 0
      ? task.duration
      : handle.seconds;
  const resolution = typeof task.resolution === 'string' ? task.resolution : handle.resolution;
  const tokens = thetaTokenUsageOf(task.usage);
  return {
    state: 'completed',
    outputs: [{ url: videoUrl, contentType: 'video/mp4' }],
    usage: { video: { seconds, ...(resolution ? { resolution } : {}) }, ...(tokens ? { tokens } : {}) },
    warnings: [],
  };
}

/** A failed task's `error: {code, message}`, classified as §6.1 classifies the same codes. */
function failureOf(error: unknown): UpstreamFailure {
  const code = isJsonObject(error) && typeof error.code === 'string' ? error.code : undefined;
  const message =
    isJsonObject(error) && typeof error.message === 'string' ? error.message : 'the upstream task failed';
  const failure = (kind: UpstreamFailure['kind'], retryable: boolean): UpstreamFailure => ({
    kind,
    retryable,
    message,
    upstreamCode: code ?? 'failed',
  });
  if (isEtaSensitiveContentCode(code)) return failure('content_policy', false);
  if (code !== undefined && REQUEST_FAULT_CODE.test(code)) return failure('bad_request', false);
  return failure('overload', true);
}
