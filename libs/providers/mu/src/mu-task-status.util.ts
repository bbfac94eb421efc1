import {
  failedForMissingOutput,
  countFrom,
  type AdapterLogger,
  type JsonObject,
  type TaskPending,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { classifyMuError, muBaseRespOf, MU_SUCCESS_CODE } from './mu-error.classifier';

/** What a status query says (§7.4), before the file of a success is looked up. */
export type MuTaskStatus =
  | TaskPending
  | { state: 'succeeded'; fileId: string; width?: number; height?: number }
  | { state: 'failed'; failure: UpstreamFailure };

const PENDING_PHASES: Readonly<Record<string, TaskPending['phase']>> = {
  Preparing: 'queued',
  Queueing: 'queued',
  Processing: 'processing',
};

/**
 * A query answer as a task state. A `Fail` carries its reason in `base_resp` when the upstream gives
 * one (an output moderation code, an internal error); without one it is an upstream failure. An
 * unknown status word is logged and read as pending: the task's deadline bounds it.
 */
export function muTaskStatusOf(payload: JsonObject, text: string, logger: AdapterLogger): MuTaskStatus {
  const status = typeof payload.status === 'string' ? payload.status : undefined;
  if (status !== undefined && Object.hasOwn(PENDING_PHASES, status)) {
    return { state: 'pending', phase: PENDING_PHASES[status] };
  }
  if (status === 'Fail') return { state: 'failed', failure: failureOf(payload, text) };
  if (status === 'Success') {
    const fileId = fileIdOf(payload.file_id);
    if (fileId === undefined) {
      return failedForMissingOutput('Success', 'the upstream reported the task a success without a file');
    }
    const width = countFrom(payload.video_width);
    const height = countFrom(payload.video_height);
    return { state: 'succeeded', fileId, ...(width && height ? { width, height } : {}) };
  }
  logger.warn('mu task status not in the status table; still pending', { status });
  return { state: 'pending' };
}

function failureOf(payload: JsonObject, text: string): UpstreamFailure {
  const baseResp = muBaseRespOf(payload);
  if (baseResp && baseResp.code !== MU_SUCCESS_CODE) return classifyMuError(200, text, {});
  return {
    kind: 'overload',
    retryable: true,
    message:
      baseResp?.message && baseResp.message !== 'success' ? baseResp.message : 'the upstream task failed',
    upstreamCode: 'Fail',
  };
}

/** `file_id` is a string in the query answer and a number in the retrieve answer (§7.4); both are read. */
export function fileIdOf(value: unknown): string | undefined {
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return undefined;
}
