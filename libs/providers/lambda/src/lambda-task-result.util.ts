import {
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type SerialisableObject,
  type TaskFailed,
  type TaskOutput,
  type TaskPollResult,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { LAMBDA_STATUS, type LambdaAction } from '@gateway/dialects';

const QUEUED_STATUSES: ReadonlySet<string> = new Set([
  LAMBDA_STATUS.notStarted,
  LAMBDA_STATUS.submitted,
  LAMBDA_STATUS.queued,
]);
const AUDIO_CONTENT_TYPE = 'audio/mpeg';
const LYRICS_CONTENT_TYPE = 'text/plain; charset=utf-8';
const COMPLETE_CLIP = 'complete';

/**
 * One task of a fetch answer (upstreams.md §9.4) as a poll result. A non-empty `fail_reason` is a
 * failure whatever `status` says; then the status table: waiting words are queued, IN_PROGRESS
 * running, UNKNOWN (and any word outside the table, logged) still pending, SUCCESS the clips (or the
 * lyrics), FAILURE a failure without a reason.
 */
export function fromLambdaTask(
  task: JsonObject,
  action: LambdaAction,
  logger: AdapterLogger,
): TaskPollResult {
  const status = typeof task.status === 'string' ? task.status : '';
  const failReason = typeof task.fail_reason === 'string' ? task.fail_reason.trim() : '';
  if (failReason !== '') return { state: 'failed', failure: taskFailure(failReason, status) };
  if (status === LAMBDA_STATUS.failure) {
    return { state: 'failed', failure: taskFailure('the upstream task failed without a reason', status) };
  }
  const progress = progressOf(task.progress);
  if (QUEUED_STATUSES.has(status)) return pending('queued', progress);
  if (status === LAMBDA_STATUS.inProgress) return pending('processing', progress);
  if (status !== LAMBDA_STATUS.success) {
    if (status !== LAMBDA_STATUS.unknown) {
      logger.warn('lambda task status not in the status table; still pending', { status: task.status });
    }
    return progress === undefined ? { state: 'pending' } : { state: 'pending', progress };
  }
  return action === 'lyrics' ? lyricsResult(task.data) : musicResult(task.data);
}

function pending(phase: 'queued' | 'processing', progress: number | undefined): TaskPollResult {
  return progress === undefined ? { state: 'pending', phase } : { state: 'pending', phase, progress };
}

/** The complete clips with their audio; the seconds of the clips that report a duration. */
function musicResult(clips: unknown): TaskPollResult {
  const outputs: TaskOutput[] = [];
  let seconds = 0;
  for (const clip of Array.isArray(clips) ? clips : []) {
    if (!isJsonObject(clip) || clip.status !== COMPLETE_CLIP) continue;
    if (typeof clip.audio_url !== 'string' || clip.audio_url === '') continue;
    // Parsed from JSON, so serialisable as it is.
    outputs.push({
      url: clip.audio_url,
      contentType: AUDIO_CONTENT_TYPE,
      detail: clip as SerialisableObject,
    });
    const duration = isJsonObject(clip.metadata) ? clip.metadata.duration : undefined;
    if (typeof duration === 'number' && Number.isFinite(duration) && duration > 0) seconds += duration;
  }
  if (outputs.length === 0) return doneWithout('any complete clip');
  return {
    state: 'completed',
    outputs,
    ...(seconds > 0 ? { usage: { audio: { seconds } } } : {}),
    warnings: [],
  };
}

/** Lyrics are text: one output holding it, its id and title in the detail. */
function lyricsResult(lyrics: unknown): TaskPollResult {
  if (!isJsonObject(lyrics) || typeof lyrics.text !== 'string' || lyrics.text === '') {
    return doneWithout('lyrics');
  }
  return {
    state: 'completed',
    outputs: [
      {
        bytes: Buffer.from(lyrics.text, 'utf8'),
        contentType: LYRICS_CONTENT_TYPE,
        detail: lyrics as SerialisableObject,
      },
    ],
    warnings: [],
  };
}

/** A success with nothing in it: the upstream's fault, worth trying again. */
function doneWithout(what: string): TaskFailed {
  return failedForMissingOutput(
    LAMBDA_STATUS.success,
    `the upstream reported the task a success without ${what}`,
  );
}

/** The upstream's reason, shown as it wrote it; the status word is kept as its code. */
function taskFailure(reason: string, status: string): UpstreamFailure {
  const failure: UpstreamFailure = { kind: 'bad_request', retryable: false, message: reason };
  if (status !== '') failure.upstreamCode = status;
  return failure;
}

/** `"45%"` → 45; anything else is not a progress. */
function progressOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}
