import {
  failedOrRethrown,
  isVideoCall,
  malformedAnswerError,
  UpstreamError,
  videoTaskHandleOf,
  type JsonObject,
  type PlainKeyCredentials,
  type TaskAdapter,
  type VideoTaskHandle,
  type VideoUsage,
} from '@gateway/providers-core';
import { alphaTaskFailure } from './alpha-error.classifier';
import { getAlpha, postAlpha } from './alpha-request.util';
import { alphaSubmissionOf } from './alpha-submission.util';
import { fromAlphaCreations } from './alpha-task-result.util';

/**
 * The alpha official API's video tasks (upstreams.md §3): submit on the endpoint of the call's mode,
 * poll the creations. The wire has no idempotency key and no cancel.
 */
export const alphaTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  async submit(call, context) {
    if (!isVideoCall(call.request)) throw new TypeError('an alpha task request must be a video call');
    const { path, body } = alphaSubmissionOf(call.request, call.upstreamModel);
    const answer = await postAlpha(context, path, body);
    if (answer.state === 'failed') {
      // §3.3: a submission answered `failed` is an error, though it came with a 200.
      const errCode = typeof answer.err_code === 'string' ? answer.err_code : '';
      throw new UpstreamError({ ...alphaTaskFailure(errCode), httpStatus: 200 });
    }
    const taskId = answer.task_id;
    if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
    // The seconds and resolution the upstream accepted: the creations answer reports neither.
    const handle: VideoTaskHandle = {
      taskId,
      seconds: acceptedSeconds(answer) ?? call.request.seconds,
      resolution:
        typeof answer.resolution === 'string' ? answer.resolution.toLowerCase() : call.request.resolution,
    };
    return { handle };
  },

  async poll(handle, context) {
    const task = videoTaskHandleOf(handle, 'an alpha task handle');
    try {
      const payload = await getAlpha(context, `/tasks/${encodeURIComponent(task.taskId)}/creations`);
      return fromAlphaCreations(payload, usageOf(task), context.logger);
    } catch (error) {
      // An answer about the task (404 TaskNotFound, 401, a 400) ends it.
      return failedOrRethrown(error);
    }
  },
};

function acceptedSeconds(answer: JsonObject): number | undefined {
  const { duration } = answer;
  return typeof duration === 'number' && Number.isInteger(duration) && duration > 0 ? duration : undefined;
}

function usageOf(task: VideoTaskHandle): VideoUsage {
  return task.resolution === null
    ? { seconds: task.seconds }
    : { seconds: task.seconds, resolution: task.resolution };
}
