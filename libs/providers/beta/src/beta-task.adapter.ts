import {
  isJsonObject,
  isVideoCall,
  malformedAnswerError,
  UpstreamError,
  type JsonHandle,
  type SerialisableObject,
  type TaskAdapter,
  type TaskPollResult,
  type TaskSubmission,
  type VideoCall,
} from '@gateway/providers-core';
import {
  BETA_GET_RESULT_ACTION,
  BETA_SUBMIT_ACTION,
  betaImageReqKeyOf,
  betaSubmissionArea,
  betaTierOfArea,
  isBetaResolutionTier,
  type BetaResolutionTier,
  type BetaTaskRequest,
} from '@gateway/dialects';
import type { BetaChannelSettings } from './beta-channel.settings';
import type { BetaCredentials } from './beta-credentials.parse';
import { callBetaAction, type BetaContext } from './beta-request.util';
import { betaImagesDone, fromBetaResult, type BetaDoneReader } from './beta-task-result.util';
import {
  betaVideoDone,
  betaVideoReqKeyFor,
  betaVideoTaskHandleOf,
  toBetaVideoSubmitBody,
  type BetaVideoTaskHandle,
} from './video/beta-video-task';

/** A §4.6 business code (the envelope's `code`), as opposed to a ResponseMetadata or bare HTTP error. */
const BUSINESS_CODE = /^\d+$/;

/**
 * What the gateway stores for a submitted beta image task: the upstream's task id, the `req_key` the
 * query must repeat (§4.4), the `req_json` the result is fetched with, and the tier the images are
 * priced at. A video task stores a BetaVideoTaskHandle, told apart by its `kind`.
 */
type BetaImageTaskHandle = {
  taskId: string;
  reqKey: string;
  reqJson: string;
  tier: BetaResolutionTier;
};

/**
 * The beta Action API's asynchronous tasks (upstreams.md §4.3–§4.5), signed or through a relay: image
 * tasks (a BetaTaskRequest) and video tasks (a VideoCall, told apart by isVideoCall).
 */
export const betaTaskAdapter: TaskAdapter<BetaCredentials, BetaChannelSettings> = {
  async submit(call, context) {
    if (isVideoCall(call.request)) return submitVideo(call.request, call.upstreamModel, context);
    const { submission, resultOptions } = betaTaskRequestOf(call.request);
    // A channel may map a model straight to a req_key; a known model name is translated.
    const reqKey = betaImageReqKeyOf(call.upstreamModel) ?? call.upstreamModel;
    const body = JSON.stringify(toBetaSubmitBody(reqKey, submission));
    const taskId = await submittedTaskId(context, body);
    const handle: BetaImageTaskHandle = {
      taskId,
      reqKey,
      // URLs are always asked for: whoever reads the result gets both forms and picks.
      reqJson: JSON.stringify({ ...resultOptions, return_url: true }),
      tier: betaTierOfArea(betaSubmissionArea(submission)),
    };
    return { handle };
  },

  async poll(handle, context) {
    const video = betaVideoTaskHandleOf(handle);
    if (video) {
      // A video result has no options to fetch it with (§4.4: they are image and marking options).
      return pollTask(context, { req_key: video.reqKey, task_id: video.taskId }, betaVideoDone(video));
    }
    const image = betaImageTaskHandleOf(handle);
    const query = { req_key: image.reqKey, task_id: image.taskId, req_json: image.reqJson };
    return pollTask(context, query, betaImagesDone(image.tier));
  },
};

/** One GetResult query (§4.4) read as a poll result. */
async function pollTask(
  context: BetaContext,
  query: Record<string, string>,
  readDone: BetaDoneReader,
): Promise<TaskPollResult> {
  try {
    const payload = await callBetaAction(context, BETA_GET_RESULT_ACTION, JSON.stringify(query));
    return fromBetaResult(payload.data, readDone, context.logger);
  } catch (error) {
    return failedOrRethrown(error);
  }
}

async function submitVideo(
  call: VideoCall,
  upstreamModel: string,
  context: BetaContext,
): Promise<TaskSubmission> {
  const reqKey = betaVideoReqKeyFor(call, upstreamModel);
  const taskId = await submittedTaskId(context, JSON.stringify(toBetaVideoSubmitBody(call, reqKey)));
  const handle: BetaVideoTaskHandle = {
    kind: 'video',
    taskId,
    reqKey,
    seconds: call.seconds,
    resolution: call.resolution,
  };
  return { handle };
}

/** Submits (§4.3) and reads the upstream's task id from the success envelope. */
async function submittedTaskId(context: BetaContext, body: string): Promise<string> {
  const payload = await callBetaAction(context, BETA_SUBMIT_ACTION, body);
  const taskId = isJsonObject(payload.data) ? payload.data.task_id : undefined;
  if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
  return taskId;
}

/**
 * §4.5: a query answered with a business code (≠ 10000) ends the task, 50500 Internal Error included:
 * the upstream answers a failed task so on every query, so asking again would wait out the deadline.
 * Only what says nothing about the task (a rate limit, a timeout, a 5xx or a transport failure
 * without a business code) is thrown, for the caller to ask again later.
 */
function failedOrRethrown(error: unknown): TaskPollResult {
  if (!(error instanceof UpstreamError)) throw error;
  const { failure } = error;
  const answeredForTheTask = failure.upstreamCode !== undefined && BUSINESS_CODE.test(failure.upstreamCode);
  const askAgainLater =
    failure.kind === 'rate_limit' ||
    failure.kind === 'timeout' ||
    (failure.kind === 'overload' && failure.retryable && !answeredForTheTask);
  if (askAgainLater) throw error;
  return { state: 'failed', failure };
}

/** `req_key` first, then the stored submission (which never carries one of its own). */
function toBetaSubmitBody(reqKey: string, submission: SerialisableObject): SerialisableObject {
  const { req_key: _ignored, ...fields } = submission;
  return { req_key: reqKey, ...fields };
}

function betaTaskRequestOf(request: SerialisableObject): BetaTaskRequest {
  const { submission, resultOptions } = request;
  if (!isJsonObject(submission)) throw new TypeError('a beta task request needs its submission object');
  return {
    submission: submission as SerialisableObject,
    resultOptions: isJsonObject(resultOptions) ? (resultOptions as SerialisableObject) : {},
  };
}

/** The stored handle, checked: a row written by another version of this adapter fails loudly. */
function betaImageTaskHandleOf(handle: JsonHandle): BetaImageTaskHandle {
  if (
    isJsonObject(handle) &&
    typeof handle.taskId === 'string' &&
    typeof handle.reqKey === 'string' &&
    typeof handle.reqJson === 'string' &&
    typeof handle.tier === 'string' &&
    isBetaResolutionTier(handle.tier)
  ) {
    return { taskId: handle.taskId, reqKey: handle.reqKey, reqJson: handle.reqJson, tier: handle.tier };
  }
  throw new TypeError('not a beta task handle');
}
