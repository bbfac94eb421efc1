import {
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskPollResult,
} from '@gateway/providers-core';
import type { GammaUsageBasis } from '../gamma-task-result.util';

/**
 * A §5.8 query's `data` as a poll result: `submitted` and `processing` are pending, `succeed` with a
 * video URL is completed (its `duration` the seconds billed, else those submitted), `failed` is failed
 * with `task_status_msg`. The wire says nothing of why a task failed beyond that message, so the
 * failure is the upstream's own (an overload). An unknown status is logged and read as pending: the
 * task's deadline bounds it.
 */
export function fromGammaOfficialTask(
  data: JsonObject,
  basis: GammaUsageBasis,
  logger: AdapterLogger,
): TaskPollResult {
  const status = data.task_status;
  switch (status) {
    case 'submitted':
      return { state: 'pending', phase: 'queued' };
    case 'processing':
      return { state: 'pending', phase: 'processing' };
    case 'succeed':
      return succeeded(data, basis);
    case 'failed': {
      const reason = typeof data.task_status_msg === 'string' ? data.task_status_msg : '';
      return {
        state: 'failed',
        failure: {
          kind: 'overload',
          retryable: true,
          message: reason || 'the upstream task failed',
          upstreamCode: 'failed',
        },
      };
    }
  }
  logger.warn('gamma official task status not in the status table; still pending', { status });
  return { state: 'pending' };
}

function succeeded(data: JsonObject, basis: GammaUsageBasis): TaskPollResult {
  const result = isJsonObject(data.task_result) ? data.task_result : {};
  const video = Array.isArray(result.videos) && isJsonObject(result.videos[0]) ? result.videos[0] : {};
  if (typeof video.url !== 'string' || video.url === '') {
    return failedForMissingOutput('succeed', 'the upstream reported the task succeeded without a video');
  }
  const duration = Number(video.duration);
  return {
    state: 'completed',
    outputs: [{ url: video.url, contentType: 'video/mp4' }],
    usage: {
      video: {
        seconds: Number.isFinite(duration) && duration > 0 ? duration : basis.seconds,
        ...(basis.resolution === null ? {} : { resolution: basis.resolution }),
      },
    },
    warnings: [],
  };
}
