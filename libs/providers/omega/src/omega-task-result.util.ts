import {
  failedForMissingOutput,
  countFrom,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskPollResult,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { omegaTaskFailureOf } from './omega-error.classifier';

/** What the query needs to price a task when its answer says less than it should. */
export interface OmegaTaskAsked {
  seconds: number;
  /** `720p`, `1080p`. */
  tier: string;
}

const VIDEO_CONTENT_TYPE = 'video/mp4';

/** Terminal words without a result, and the failure they are (§8.4). */
const ENDED_WITHOUT_RESULT: Readonly<Record<string, UpstreamFailure>> = {
  // The wire's own cancellation: the gateway never cancels omega tasks, so it ends the task failed.
  CANCELED: {
    kind: 'bad_request',
    retryable: false,
    message: 'the upstream cancelled the task',
    upstreamCode: 'CANCELED',
  },
  UNKNOWN: {
    kind: 'bad_request',
    retryable: false,
    message: 'the upstream does not know the task (an unknown id, or a task older than 24 hours)',
    upstreamCode: 'UNKNOWN',
  },
};

/**
 * A query answer (§8.4) as a poll result. `PENDING` is queued, `RUNNING` processing; `SUCCEEDED` gives
 * `output.video_url`, priced by the `usage` reported (`duration` seconds at tier `SR`), else by what
 * was asked. An unknown word is logged and read as pending: the task's deadline bounds it.
 */
export function fromOmegaTask(
  payload: JsonObject,
  asked: OmegaTaskAsked,
  logger: AdapterLogger,
): TaskPollResult {
  const output = isJsonObject(payload.output) ? payload.output : {};
  const status = typeof output.task_status === 'string' ? output.task_status : undefined;
  switch (status) {
    case 'PENDING':
      return { state: 'pending', phase: 'queued' };
    case 'RUNNING':
      return { state: 'pending', phase: 'processing' };
    case 'FAILED':
      return {
        state: 'failed',
        failure: omegaTaskFailureOf(
          typeof output.code === 'string' ? output.code : undefined,
          typeof output.message === 'string' ? output.message : undefined,
        ),
      };
    case 'SUCCEEDED':
      return succeeded(output, payload.usage, asked);
  }
  if (status !== undefined && Object.hasOwn(ENDED_WITHOUT_RESULT, status)) {
    return { state: 'failed', failure: ENDED_WITHOUT_RESULT[status] };
  }
  logger.warn('omega task status not in the status table; still pending', { status });
  return { state: 'pending' };
}

function succeeded(output: JsonObject, usage: unknown, asked: OmegaTaskAsked): TaskPollResult {
  const url = output.video_url;
  if (typeof url !== 'string' || url === '') {
    return failedForMissingOutput('SUCCEEDED', 'the upstream reported the task succeeded without a video');
  }
  const reported = isJsonObject(usage) ? usage : {};
  const seconds = countFrom(reported.duration);
  const resolutionTier = countFrom(reported.SR);
  return {
    state: 'completed',
    outputs: [{ url, contentType: VIDEO_CONTENT_TYPE }],
    usage: {
      video: {
        seconds: seconds !== undefined && seconds > 0 ? seconds : asked.seconds,
        resolution: resolutionTier ? `${resolutionTier}p` : asked.tier,
      },
    },
    warnings: [],
  };
}
