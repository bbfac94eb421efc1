import {
  getForJsonObject,
  isSuccessStatus,
  isVideoCall,
  postForJsonObject,
  malformedAnswerError,
  upstreamErrorFromResponse,
  videoTaskHandleOf,
  type PlainKeyCredentials,
  type TaskAdapter,
  type VideoTaskHandle,
} from '@gateway/providers-core';
import { classifyEtaError } from '../eta-error.classifier';
import { etaDataPlaneUrl, etaHeaders } from '../eta-request.util';
import { toThetaCreateBody } from './theta-task-request.util';
import { fromThetaTask } from './theta-task-result.util';

const TASKS_PATH = '/contents/generations/tasks';

const taskPath = (taskId: string): string => `${TASKS_PATH}/${encodeURIComponent(taskId)}`;

/**
 * theta video tasks on the eta data plane (upstreams.md §6.2): create, query, and cancel while queued.
 * Errors are the §6.1 envelope. The wire takes no client reference, so an interrupted submission is
 * not looked up (the step processor fails it rather than create a second task).
 */
export const thetaTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  async submit(call, context) {
    if (!isVideoCall(call.request)) throw new TypeError('a theta task request must be a video call');
    const { payload } = await postForJsonObject(
      context,
      {
        url: etaDataPlaneUrl(context.channel.baseUrl, TASKS_PATH),
        headers: etaHeaders(context.channel.credentials.apiKey),
        body: JSON.stringify(toThetaCreateBody(call.request, call.upstreamModel)),
      },
      classifyEtaError,
    );
    if (typeof payload.id !== 'string' || payload.id === '') throw malformedAnswerError(200);
    const handle: VideoTaskHandle = {
      taskId: payload.id,
      seconds: call.request.seconds,
      resolution: call.request.resolution,
    };
    return { handle };
  },

  /** An error answer is thrown: the step processor asks again when it is retryable, else fails the task. */
  async poll(handle, context) {
    const task = videoTaskHandleOf(handle, 'a theta task handle');
    const { payload } = await getForJsonObject(
      context,
      {
        url: etaDataPlaneUrl(context.channel.baseUrl, taskPath(task.taskId)),
        headers: etaHeaders(context.channel.credentials.apiKey),
      },
      classifyEtaError,
    );
    return fromThetaTask(payload, task, context.logger);
  },

  /** §6.2: DELETE cancels a queued task; a running one is refused by the upstream (thrown, best effort). */
  async cancel(handle, context) {
    const task = videoTaskHandleOf(handle, 'a theta task handle');
    const response = await context.http.request({
      method: 'DELETE',
      url: etaDataPlaneUrl(context.channel.baseUrl, taskPath(task.taskId)),
      headers: etaHeaders(context.channel.credentials.apiKey),
      signal: context.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
    if (!isSuccessStatus(response.status)) throw await upstreamErrorFromResponse(response, classifyEtaError);
    await response.dump();
  },
};
