import {
  isJsonObject,
  malformedAnswerError,
  UpstreamError,
  type JsonHandle,
  type PlainKeyCredentials,
  type TaskAdapter,
  type TaskPollResult,
} from '@gateway/providers-core';
import {
  getMu,
  isMuSuccess,
  muAnswerError,
  muSuccessOrThrow,
  MU_FILE_RETRIEVE_PATH,
  MU_QUERY_PATH,
  MU_SUBMIT_PATH,
  postMu,
  type MuContext,
} from './mu-request.util';
import { muVideoCallOf, toMuSubmitBody } from './mu-submit-body.util';
import { fileIdOf, muTaskStatusOf } from './mu-task-status.util';

/**
 * What the gateway stores for a submitted mu task: the upstream's task id, and the seconds and price
 * tier it was asked at (the query reports the frame size, never the duration).
 */
type MuTaskHandle = { taskId: string; seconds: number; tier: string };

const VIDEO_CONTENT_TYPE = 'video/mp4';

/**
 * mu video tasks (upstreams.md §7.2–§7.4): submit, query, and, once a task succeeded, the file-retrieve
 * call that gives the download URL. The URL lives about 9 hours; every poll of a finished task asks for
 * a fresh one, so a refresh of an expired link is one more poll.
 */
export const muTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  async submit(call, context) {
    const video = muVideoCallOf(call.request);
    const answer = await postMu(context, MU_SUBMIT_PATH, toMuSubmitBody(call.upstreamModel, video));
    const payload = muSuccessOrThrow(answer);
    const taskId = payload.task_id;
    if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
    const handle: MuTaskHandle = { taskId, seconds: video.seconds, tier: video.resolution ?? '' };
    return { handle };
  },

  async poll(handle, context): Promise<TaskPollResult> {
    const task = muTaskHandleOf(handle);
    const answer = await getMu(context, MU_QUERY_PATH, { task_id: task.taskId });
    // A `Fail` may carry its reason in base_resp; any other error code is the query's own failure.
    if (!isMuSuccess(answer) && answer.payload.status !== 'Fail') throw muAnswerError(answer);
    const status = muTaskStatusOf(answer.payload, answer.text, context.logger);
    if (status.state !== 'succeeded') return status;
    const url = await downloadUrlOf(context, status.fileId);
    const resolution =
      status.width && status.height ? `${Math.min(status.width, status.height)}p` : task.tier;
    return {
      state: 'completed',
      outputs: [{ url, contentType: VIDEO_CONTENT_TYPE }],
      usage: { video: { seconds: task.seconds, ...(resolution ? { resolution } : {}) } },
      warnings: [],
    };
  },
};

/** `GET /v1/files/retrieve?file_id=…` → `file.download_url` (§7.4). */
async function downloadUrlOf(context: MuContext, fileId: string): Promise<string> {
  const payload = muSuccessOrThrow(await getMu(context, MU_FILE_RETRIEVE_PATH, { file_id: fileId }));
  const file = isJsonObject(payload.file) ? payload.file : undefined;
  const url = file?.download_url;
  if (typeof url !== 'string' || url === '' || fileIdOf(file?.file_id) !== fileId) {
    throw new UpstreamError({
      kind: 'overload',
      retryable: true,
      httpStatus: 200,
      message: `the file-retrieve answer has no download URL for file ${fileId}`,
    });
  }
  return url;
}

/** The stored handle, checked: a row written by another version of this adapter fails loudly. */
function muTaskHandleOf(handle: JsonHandle): MuTaskHandle {
  if (
    isJsonObject(handle) &&
    typeof handle.taskId === 'string' &&
    typeof handle.seconds === 'number' &&
    typeof handle.tier === 'string'
  ) {
    return { taskId: handle.taskId, seconds: handle.seconds, tier: handle.tier };
  }
  throw new TypeError('not a mu task handle');
}
