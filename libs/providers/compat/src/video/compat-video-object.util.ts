import {
  isJsonObject,
  type AdapterLogger,
  type TaskPollResult,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { classifyCompatStreamError } from '../compat-error.classifier';
import type { CompatVideoHandle } from './compat-video-handle';

type VideoState = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** Every status word of upstreams.md §2.4 (first-party and relay synonyms). */
const STATE_OF_WORD: Readonly<Record<string, VideoState>> = {
  queued: 'queued',
  pending: 'queued',
  submitted: 'queued',
  not_start: 'queued',
  preparing: 'queued',
  in_progress: 'processing',
  processing: 'processing',
  running: 'processing',
  generating: 'processing',
  completed: 'completed',
  succeeded: 'completed',
  success: 'completed',
  finished: 'completed',
  failed: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
};

/** Where relays put the result URL, in the order the gateway reads them (upstreams.md §2.4). */
const URL_PLACES: ReadonlyArray<readonly string[]> = [
  ['video_url'],
  ['url'],
  ['output', 'url'],
  ['metadata', 'url'],
  ['metadata', 'video_url'],
  ['metadata', 'result_url'],
  ['detail', 'url'],
];

const VIDEO_CONTENT_TYPE = 'video/mp4';

/**
 * Reads a retrieved video object. Pending words give the phase and progress; `completed` gives the
 * result URL where a relay put one (none on the first-party wire, whose bytes come from `/content`)
 * and the seconds the object reports; `failed` is classified from `error` like any compat error
 * (`moderation_blocked` → content_policy); `cancelled` ends it cancelled. An unknown word is logged and
 * read as pending, so the task waits for a word it knows or its deadline.
 */
export function fromCompatVideoObject(
  object: Record<string, unknown>,
  handle: CompatVideoHandle,
  logger: AdapterLogger,
): TaskPollResult {
  const word = typeof object.status === 'string' ? object.status.toLowerCase() : undefined;
  const state = word === undefined ? undefined : STATE_OF_WORD[word];
  const progress = progressOf(object.progress);
  switch (state) {
    case 'queued':
    case 'processing':
      return { state: 'pending', phase: state, ...(progress !== undefined && { progress }) };
    case 'completed': {
      const url = resultUrlOf(object);
      return {
        state: 'completed',
        outputs: url ? [{ url, contentType: VIDEO_CONTENT_TYPE }] : [],
        usage: {
          video: {
            seconds: producedSecondsOf(object.seconds) ?? handle.seconds,
            ...(handle.resolution !== null && { resolution: handle.resolution }),
          },
        },
        warnings: [],
      };
    }
    case 'failed':
      return { state: 'failed', failure: failureOf(object.error) };
    case 'cancelled':
      return {
        state: 'failed',
        cancelled: true,
        failure: {
          kind: 'bad_request',
          retryable: false,
          message: 'the upstream cancelled the video',
          upstreamCode: word,
        },
      };
    case undefined:
      logger.warn('compat video: unknown status word, read as pending', {
        videoId: handle.videoId,
        status: String(object.status),
      });
      return { state: 'pending', ...(progress !== undefined && { progress }) };
  }
}

/** The first URL found in the placement order; undefined when the object carries none. */
export function resultUrlOf(object: Record<string, unknown>): string | undefined {
  for (const place of URL_PLACES) {
    let value: unknown = object;
    for (const key of place) value = isJsonObject(value) ? value[key] : undefined;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function progressOf(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number)
    ? Math.min(100, Math.max(0, Math.round(number)))
    : undefined;
}

/** `seconds` is a string on this wire (`"8"`); relays may send a number. */
function producedSecondsOf(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** `error: {code, message}` classified as a compat error answer of the status its code comes with. */
function failureOf(error: unknown): UpstreamFailure {
  if (!isJsonObject(error)) {
    return {
      kind: 'overload',
      retryable: true,
      message: 'the upstream reported the video failed without saying why',
    };
  }
  return classifyCompatStreamError(error, JSON.stringify({ error }));
}
