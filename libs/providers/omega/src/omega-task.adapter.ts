import {
  getForJsonObject,
  isJsonObject,
  malformedAnswerError,
  postForJsonObject,
  type JsonHandle,
  type PlainKeyCredentials,
  type TaskAdapter,
} from '@gateway/providers-core';
import { classifyOmegaError } from './omega-error.classifier';
import { omegaHeaders, omegaSubmitUrl, omegaTaskUrl } from './omega-request.util';
import { omegaVideoCallOf, toOmegaSubmitBody } from './omega-submit-body.util';
import { fromOmegaTask } from './omega-task-result.util';

/** What the gateway stores for a submitted omega task: the upstream's id and what was asked. */
type OmegaTaskHandle = { taskId: string; seconds: number; tier: string };

/**
 * omega video tasks (upstreams.md §8.2–§8.4): an asynchronous submission, then the task query, whose
 * `video_url` lives 24 hours. Task ids are queryable for 24 hours; the gateway's deadline is shorter.
 */
export const omegaTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  async submit(call, context) {
    const video = omegaVideoCallOf(call.request);
    const { payload } = await postForJsonObject(
      context,
      {
        url: omegaSubmitUrl(context.channel.baseUrl),
        headers: omegaHeaders(context.channel.credentials.apiKey, true),
        body: JSON.stringify(toOmegaSubmitBody(call.upstreamModel, video)),
      },
      classifyOmegaError,
    );
    const taskId = isJsonObject(payload.output) ? payload.output.task_id : undefined;
    if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
    const handle: OmegaTaskHandle = { taskId, seconds: video.seconds, tier: video.resolution ?? '' };
    return { handle };
  },

  async poll(handle, context) {
    const task = omegaTaskHandleOf(handle);
    const { payload } = await getForJsonObject(
      context,
      {
        url: omegaTaskUrl(context.channel.baseUrl, task.taskId),
        headers: omegaHeaders(context.channel.credentials.apiKey, false),
      },
      classifyOmegaError,
    );
    return fromOmegaTask(payload, task, context.logger);
  },
};

/** The stored handle, checked: a row written by another version of this adapter fails loudly. */
function omegaTaskHandleOf(handle: JsonHandle): OmegaTaskHandle {
  if (
    isJsonObject(handle) &&
    typeof handle.taskId === 'string' &&
    typeof handle.seconds === 'number' &&
    typeof handle.tier === 'string'
  ) {
    return { taskId: handle.taskId, seconds: handle.seconds, tier: handle.tier };
  }
  throw new TypeError('not an omega task handle');
}
