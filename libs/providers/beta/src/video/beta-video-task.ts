import {
  failedForMissingOutput,
  isJsonObject,
  parseBase64DataUrl,
  UpstreamError,
  type JsonObject,
  type SerialisableObject,
  type TaskPollResult,
  type VideoCall,
} from '@gateway/providers-core';
import {
  betaVideoFramesOf,
  betaVideoReqKeyOf,
  isBetaVideoTableModel,
  type BetaVideoMode,
} from '@gateway/dialects';

/**
 * What the gateway stores for a submitted beta video task: the upstream's task id, the `req_key` the
 * query repeats (§4.4), and what the result is billed as (the seconds and resolution submitted; the
 * wire reports neither).
 */
export type BetaVideoTaskHandle = {
  kind: 'video';
  taskId: string;
  reqKey: string;
  seconds: number;
  resolution: string | null;
};

const BETA_VIDEO_MODES: readonly string[] = ['text', 'first_frame', 'first_last'];

/**
 * The `req_key` of a planned call (§4.3): the table's key for the channel's upstream model, the mode
 * and the resolution. A channel may map the model straight to a `req_key`, which is then sent as it is.
 * A model of the table without a key for the call (the pro model asked for two frames) is refused
 * before any upstream call.
 */
export function betaVideoReqKeyFor(call: VideoCall, upstreamModel: string): string {
  const mode = BETA_VIDEO_MODES.includes(call.mode) ? (call.mode as BetaVideoMode) : undefined;
  const reqKey = mode && betaVideoReqKeyOf(upstreamModel, mode, call.resolution);
  if (reqKey) return reqKey;
  if (!mode || isBetaVideoTableModel(upstreamModel)) {
    // No upstream call was made, so no task exists: the status tells the caller it may fail the task at once.
    throw new UpstreamError({
      kind: 'bad_request',
      retryable: false,
      httpStatus: 400,
      message: `${upstreamModel} has no req_key for ${call.mode} at ${call.resolution ?? 'its resolution'}`,
    });
  }
  return upstreamModel;
}

/**
 * The §4.3 submission of a planned video call: frames as `image_urls`, or as bare `binary_data_base64`
 * when they were uploaded (the rules let no mix through), `frames` for the seconds, the ratio for text.
 */
export function toBetaVideoSubmitBody(call: VideoCall, reqKey: string): SerialisableObject {
  const body: SerialisableObject = { req_key: reqKey };
  if (call.prompt !== '') body.prompt = call.prompt;
  const urls = call.images.map((image) => image.url);
  if (urls.length > 0 && urls.every((url) => url.startsWith('data:'))) {
    body.binary_data_base64 = urls.map((url) => parseBase64DataUrl(url)?.data ?? '');
  } else if (urls.length > 0) {
    body.image_urls = urls;
  }
  body.frames = betaVideoFramesOf(call.seconds);
  if (call.aspectRatio !== null) body.aspect_ratio = call.aspectRatio;
  if (typeof call.extras.seed === 'number') body.seed = call.extras.seed;
  return body;
}

/** A done video task (§4.4): its `video_url`, billed at the seconds and resolution submitted. */
export function betaVideoDone(handle: BetaVideoTaskHandle) {
  return (data: JsonObject): TaskPollResult => {
    if (typeof data.video_url !== 'string' || data.video_url === '') {
      return failedForMissingOutput('done', 'the upstream reported the task done without a video_url');
    }
    return {
      state: 'completed',
      outputs: [{ url: data.video_url, contentType: 'video/mp4' }],
      usage: {
        video: { seconds: handle.seconds, ...(handle.resolution ? { resolution: handle.resolution } : {}) },
      },
      warnings: [],
    };
  };
}

/** A stored video handle, or undefined for any other value (an image handle has no `kind`). */
export function betaVideoTaskHandleOf(handle: unknown): BetaVideoTaskHandle | undefined {
  if (
    isJsonObject(handle) &&
    handle.kind === 'video' &&
    typeof handle.taskId === 'string' &&
    typeof handle.reqKey === 'string' &&
    typeof handle.seconds === 'number' &&
    (typeof handle.resolution === 'string' || handle.resolution === null)
  ) {
    return {
      kind: 'video',
      taskId: handle.taskId,
      reqKey: handle.reqKey,
      seconds: handle.seconds,
      resolution: handle.resolution,
    };
  }
  return undefined;
}
