import {
  countFrom,
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskPollResult,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { gammaClassOf } from './gamma-error.classifier';

/** What the poll needs of the submission to report usage. */
export interface GammaUsageBasis {
  seconds: number;
  resolution: string | null;
}

/** `ErrCodeExt` of a content rejection (upstreams.md §5.6‡). */
const CONTENT_AUDIT_FAILED = 'ContentAuditFailed';
const CONTENT_TYPES: Readonly<Record<string, string>> = { mp4: 'video/mp4', mov: 'video/quicktime' };

/**
 * A `DescribeTaskDetail` answer (§5.5) as a poll result: WAITING and PROCESSING are pending, FINISH
 * without an error and with a file is completed, any other FINISH and ABORTED are failed. An unknown
 * status is logged and read as pending: the task's deadline bounds it.
 */
export function fromGammaTaskDetail(
  response: JsonObject,
  basis: GammaUsageBasis,
  logger: AdapterLogger,
): TaskPollResult {
  const task = isJsonObject(response.AigcVideoTask) ? response.AigcVideoTask : {};
  const status = typeof task.Status === 'string' ? task.Status : response.Status;
  const progress = countFrom(task.Progress);
  switch (status) {
    case 'WAITING':
      return { state: 'pending', phase: 'queued', ...(progress === undefined ? {} : { progress }) };
    case 'PROCESSING':
      return { state: 'pending', phase: 'processing', ...(progress === undefined ? {} : { progress }) };
    case 'FINISH':
      return finished(task, basis);
    case 'ABORTED':
      return {
        state: 'failed',
        failure: asyncFailure(task) ?? {
          kind: 'overload',
          retryable: true,
          message: 'the upstream aborted the task',
          upstreamCode: 'ABORTED',
        },
      };
  }
  logger.warn('gamma task status not in the status table; still pending', { status });
  return { state: 'pending' };
}

function finished(task: JsonObject, basis: GammaUsageBasis): TaskPollResult {
  const failure = asyncFailure(task);
  if (failure) return { state: 'failed', failure };
  const output = isJsonObject(task.Output) ? task.Output : {};
  const file =
    Array.isArray(output.FileInfos) && isJsonObject(output.FileInfos[0]) ? output.FileInfos[0] : {};
  const url = typeof file.FileUrl === 'string' ? file.FileUrl : '';
  if (url === '') {
    return failedForMissingOutput('FINISH', 'the upstream reported the task finished without a file');
  }
  const contentType =
    typeof file.FileType === 'string' ? CONTENT_TYPES[file.FileType.toLowerCase()] : undefined;
  const metaData = isJsonObject(file.MetaData) ? file.MetaData : {};
  const seconds = countFrom(metaData.Duration);
  return {
    state: 'completed',
    outputs: [{ url, ...(contentType === undefined ? {} : { contentType }) }],
    usage: {
      video: {
        seconds: seconds !== undefined && seconds > 0 ? seconds : basis.seconds,
        ...(basis.resolution === null ? {} : { resolution: basis.resolution }),
      },
    },
    warnings: [],
  };
}

/**
 * §5.6: an asynchronous failure is `ErrCode` ≠ 0 or a non-empty `ErrCodeExt`, with `Message`. A
 * content rejection is `ContentAuditFailed`; an `ErrCodeExt` spelled like an error code is classified
 * as one; anything else is an upstream failure of its own.
 */
function asyncFailure(task: JsonObject): UpstreamFailure | undefined {
  const errCode = typeof task.ErrCode === 'number' ? task.ErrCode : 0;
  const errCodeExt = typeof task.ErrCodeExt === 'string' ? task.ErrCodeExt : '';
  if (errCode === 0 && errCodeExt === '') return undefined;
  const message =
    typeof task.Message === 'string' && task.Message !== ''
      ? task.Message
      : `the upstream task failed (${errCodeExt || `ErrCode ${errCode}`})`;
  const upstreamCode = errCodeExt || String(errCode);
  if (errCodeExt === CONTENT_AUDIT_FAILED) {
    return { kind: 'content_policy', retryable: false, message, upstreamCode };
  }
  const classification = gammaClassOf(errCodeExt);
  if (classification === undefined) return { kind: 'overload', retryable: true, message, upstreamCode };
  const [kind, retryable] = classification;
  return { kind, retryable, message, upstreamCode };
}
