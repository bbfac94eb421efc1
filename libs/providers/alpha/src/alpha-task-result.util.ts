import {
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskOutput,
  type TaskPollResult,
  type VideoUsage,
} from '@gateway/providers-core';
import { alphaTaskFailure } from './alpha-error.classifier';

const QUEUED_STATES: ReadonlySet<string> = new Set(['created', 'queueing']);
const VIDEO_CONTENT_TYPE = 'video/mp4';

/**
 * A creations answer (upstreams.md §3.4) as a poll result, by the §3.5 state table: `created` and
 * `queueing` are queued, `processing` is running, `success` gives the creations' URLs (the first is
 * the result), `failed` the `err_code`'s failure. A state outside the table is a protocol error: it
 * is logged and read as pending, so that the task's deadline ends it.
 */
export function fromAlphaCreations(
  payload: JsonObject,
  usage: VideoUsage,
  logger: AdapterLogger,
): TaskPollResult {
  const state = typeof payload.state === 'string' ? payload.state : undefined;
  if (state !== undefined && QUEUED_STATES.has(state)) return { state: 'pending', phase: 'queued' };
  if (state === 'processing') return { state: 'pending', phase: 'processing' };
  if (state === 'failed') {
    const errCode = typeof payload.err_code === 'string' ? payload.err_code : '';
    return { state: 'failed', failure: alphaTaskFailure(errCode) };
  }
  if (state !== 'success') {
    logger.warn('alpha task state not in the state table; still pending', { state: payload.state });
    return { state: 'pending' };
  }
  const outputs = outputsOf(payload.creations);
  if (outputs.length === 0) {
    return failedForMissingOutput('success', 'the upstream reported the task a success without any creation');
  }
  return { state: 'completed', outputs, usage: { video: usage }, warnings: [] };
}

function outputsOf(creations: unknown): TaskOutput[] {
  if (!Array.isArray(creations)) return [];
  return creations.flatMap((creation) =>
    isJsonObject(creation) && typeof creation.url === 'string' && creation.url !== ''
      ? [{ url: creation.url, contentType: VIDEO_CONTENT_TYPE }]
      : [],
  );
}
