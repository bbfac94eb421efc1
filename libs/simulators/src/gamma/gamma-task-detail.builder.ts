import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { randomDigits } from '../random-id.util';
import { isRecord } from '../sample-arguments.util';
import { ScriptedError } from '../scripted-error';
import { ScriptedTaskStep } from '../scripted-task.store';
import { SimulatedCall } from '../simulated-route';
import { SimulatorState } from '../simulator-state';
import { currentVideoLink } from '../video-result-link.util';
import { gammaScriptedCode } from './gamma-errors';
import { GammaTask, gammaTaskIdOf } from './gamma-tasks';

/** `ErrCode` of a failed task‡: a content rejection, or any other failure. */
const CONTENT_AUDIT_ERR_CODE = 40000;
const TASK_FAILURE_ERR_CODE = 70000;
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  ContentAuditFailed: 'The generated video did not pass the content audit.',
  'InternalError.Timeout': 'The task timed out.',
};
/** Frame sizes by resolution and ratio, for the file's `MetaData`. */
const FRAMES: Readonly<Record<string, readonly [width: number, height: number]>> = {
  '720P 16:9': [1280, 720],
  '720P 9:16': [720, 1280],
  '720P 1:1': [720, 720],
  '1080P 16:9': [1920, 1080],
  '1080P 9:16': [1080, 1920],
  '1080P 1:1': [1080, 1080],
};

interface TaskState {
  status: string;
  progress: number;
  failure?: { errCode: number; errCodeExt: string; message: string };
  withFile: boolean;
}

/** The `Response` of `DescribeTaskDetail` (upstreams.md §5.5) for one step of the task. */
export function gammaTaskDetailOf(
  call: SimulatedCall,
  state: SimulatorState,
  task: GammaTask,
  step: ScriptedTaskStep,
): Record<string, unknown> {
  const shown = taskStateOf(task, step);
  const { submission } = task.fields;
  const files = shown.withFile ? [fileInfoOf(call, state, task)] : [];
  return {
    TaskType: 'AigcVideoTask',
    Status: shown.status,
    CreateTime: isoTime(task.createdAtMs),
    BeginProcessTime: isoTime(task.fields.beganAtMs ?? task.endedAtMs),
    FinishTime: isoTime(task.endedAtMs),
    AigcVideoTask: {
      TaskId: gammaTaskIdOf(task),
      Status: shown.status,
      ErrCode: shown.failure?.errCode ?? 0,
      ErrCodeExt: shown.failure?.errCodeExt ?? '',
      Message: shown.failure?.message ?? '',
      Progress: shown.progress,
      Input: submission.input,
      Output: { FileInfos: files },
      SessionId: submission.sessionId ?? '',
      SessionContext: submission.sessionContext,
    },
  };
}

function taskStateOf(task: GammaTask, step: ScriptedTaskStep): TaskState {
  if (step.state === 'pending') {
    if (step.answered === 0) return { status: 'WAITING', progress: 0, withFile: false };
    task.fields.beganAtMs ??= Date.now();
    return { status: 'PROCESSING', progress: progressOf(task, step.answered), withFile: false };
  }
  if (step.state === 'failed')
    return { status: 'FINISH', progress: 100, failure: failureOf(step.scripted), withFile: false };
  const finish = step.finish?.toLowerCase();
  if (finish === undefined) return { status: 'FINISH', progress: 100, withFile: true };
  if (finish === 'empty') return { status: 'FINISH', progress: 100, withFile: false };
  return { status: finish.toUpperCase(), progress: finish === 'aborted' ? 0 : 100, withFile: false };
}

/** 1–99 while processing: the larger share of the scripted polls or of the scripted time. */
function progressOf(task: GammaTask, answered: number): number {
  const { plan, createdAtMs } = task;
  const byPolls = plan.pendingPolls > 0 ? answered / plan.pendingPolls : 0;
  const span = plan.readyAtMs - createdAtMs;
  const byTime = span > 0 ? (Date.now() - createdAtMs) / span : 0;
  return Math.min(99, Math.max(1, Math.round(100 * Math.max(byPolls, byTime))));
}

function failureOf(scripted: ScriptedError): NonNullable<TaskState['failure']> {
  const errCodeExt = gammaScriptedCode(scripted, 'task');
  return {
    errCode: scripted.errorClass === 'content_policy' ? CONTENT_AUDIT_ERR_CODE : TASK_FAILURE_ERR_CODE,
    errCodeExt,
    message: FAILURE_MESSAGES[errCodeExt] ?? 'The video could not be generated.',
  };
}

/** The result file; its link is kept until it expires, then the next query publishes a fresh one. */
function fileInfoOf(call: SimulatedCall, state: SimulatorState, task: GammaTask): Record<string, unknown> {
  const { fields } = task;
  const { submission } = fields;
  const link = currentVideoLink(call.request, state.files, fields, {
    expiredLinks: fields.expiredLinks,
    urlLifetimeSeconds: task.plan.urlLifetimeSeconds,
    resultHost: fields.resultHost,
  });
  const permanent = submission.storageMode === 'Permanent';
  if (permanent) fields.fileId ??= randomDigits(19);
  const [width, height] = FRAMES[`${submission.resolution} ${submission.aspectRatio}`] ?? FRAMES['720P 16:9'];
  return {
    FileType: 'mp4',
    FileUrl: link.url,
    StorageMode: submission.storageMode,
    MediaName: stringOr(outputConfigField(submission.input, 'MediaName'), ''),
    ClassId: outputConfigField(submission.input, 'ClassId') ?? 0,
    ExpireTime: permanent
      ? stringOr(outputConfigField(submission.input, 'ExpireTime'), '')
      : isoTime(link.expiresAtMs),
    FileId: fields.fileId ?? '',
    MetaData: {
      Duration: submission.duration,
      Width: width,
      Height: height,
      Size: simulatedMp4().bytes.length,
      Container: 'mp4',
    },
  };
}

function outputConfigField(input: Record<string, unknown>, field: string): unknown {
  const config = input['OutputConfig'];
  return isRecord(config) ? config[field] : undefined;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** `2025-01-01T12:00:00Z`; the empty string for a time that has not come. */
function isoTime(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
