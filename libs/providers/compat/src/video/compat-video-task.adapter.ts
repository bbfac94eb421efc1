import {
  getForJsonObject,
  isVideoCall,
  malformedAnswerError,
  postForJsonObject,
  upstreamErrorFromResponse,
  isSuccessStatus,
  UpstreamError,
  type PlainKeyCredentials,
  type TaskAdapter,
  type TaskAdapterContext,
  type TaskPollResult,
} from '@gateway/providers-core';
import { classifyCompatError } from '../compat-error.classifier';
import type { CompatVideoHandle } from './compat-video-handle';
import { requireCompatVideoHandle } from './compat-video-handle';
import { fromCompatVideoObject } from './compat-video-object.util';
import { compatVideosUrl, toCompatVideoSubmission, videoPath } from './compat-video-request.util';

type Context = TaskAdapterContext<PlainKeyCredentials>;

const authorizationOf = (context: Context) => ({
  authorization: `Bearer ${context.channel.credentials.apiKey}`,
});

/** Failures that say nothing about the video: the poll is asked again later. */
const ASK_AGAIN_KINDS: ReadonlySet<string> = new Set(['rate_limit', 'overload', 'timeout', 'auth']);

/**
 * The compat videos wire as a task (upstreams.md §2.4): create (JSON or multipart, or a remix), then
 * retrieve until a terminal word, DELETE to cancel. Every create carries `Idempotency-Key:
 * <submissionKey>`, which the upstream de-duplicates by, so a submission interrupted before its
 * answer is simply sent again (`idempotentSubmit`).
 */
export const compatVideoTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  idempotentSubmit: true,

  async submit(call, context) {
    if (!isVideoCall(call.request)) throw new TypeError('the compat task capability runs video calls only');
    const submission = await toCompatVideoSubmission(call.request, call.upstreamModel);
    const { payload } = await postForJsonObject(
      context,
      {
        url: compatVideosUrl(context.channel.baseUrl, submission.path),
        headers: {
          ...authorizationOf(context),
          'content-type': submission.contentType,
          'idempotency-key': context.submissionKey,
        },
        body: submission.body,
      },
      classifyCompatError,
    );
    if (typeof payload.id !== 'string' || payload.id === '') throw malformedAnswerError(200);
    const handle: CompatVideoHandle = {
      videoId: payload.id,
      seconds: call.request.seconds,
      size: call.request.size,
      resolution: call.request.resolution,
    };
    return { handle };
  },

  async poll(rawHandle, context) {
    const handle = requireCompatVideoHandle(rawHandle);
    try {
      const { payload } = await getForJsonObject(
        context,
        {
          url: compatVideosUrl(context.channel.baseUrl, videoPath(handle.videoId)),
          headers: authorizationOf(context),
        },
        classifyCompatError,
      );
      return fromCompatVideoObject(payload, handle, context.logger);
    } catch (error) {
      return failedOrRethrown(error);
    }
  },

  async cancel(rawHandle, context) {
    const handle = requireCompatVideoHandle(rawHandle);
    const response = await context.http.request({
      method: 'DELETE',
      url: compatVideosUrl(context.channel.baseUrl, videoPath(handle.videoId)),
      headers: authorizationOf(context),
      signal: context.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
    // A video the upstream no longer has needs no cancelling.
    if (isSuccessStatus(response.status) || response.status === 404) return response.dump();
    throw await upstreamErrorFromResponse(response, classifyCompatError);
  },
};

/**
 * A refused retrieve about the video itself (404 video not found, a moderation code) ends the task;
 * a rate limit, an overload, a timeout or a key problem says nothing about it and is thrown, for the
 * caller to ask again within the task's deadline.
 */
function failedOrRethrown(error: unknown): TaskPollResult {
  if (!(error instanceof UpstreamError) || ASK_AGAIN_KINDS.has(error.failure.kind)) throw error;
  return { state: 'failed', failure: error.failure };
}
