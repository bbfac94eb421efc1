import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { resultFileUrl } from '../result-file-url.util';
import { ScriptedError } from '../scripted-error';
import { scriptedTaskPlanOf, ScriptedTask } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { omegaCredentialOf } from './omega-auth';
import {
  newOmegaRequestId,
  omegaError,
  omegaInvalidParameter,
  omegaScriptedCode,
  omegaScriptedError,
} from './omega-errors';
import { toOmegaSubmission } from './omega-submission';
import { OmegaTaskFields } from './omega-tasks';
import { omegaLocalTime } from './omega-time.util';

/** `output.video_url` lives 24 hours (upstreams.md §8.4). */
const VIDEO_URL_LIFETIME_SECONDS = 24 * 3600;
/**
 * Terminal words `finish=` may pick instead of SUCCEEDED, as the wire spells them; any other word is
 * answered upper-cased, a word outside §8.4 (an unknown status).
 */
const FINISH_WORDS: Readonly<Record<string, string>> = {
  canceled: 'CANCELED',
  unknown: 'UNKNOWN',
  failed: 'FAILED',
};
/** `output.message` of a failed task, by code. */
const TASK_FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  DataInspectionFailed: 'Output data may contain inappropriate content.',
  'InternalError.Timeout': 'The task timed out.',
};

type OmegaTask = ScriptedTask<OmegaTaskFields>;

/**
 * The two omega calls (upstreams.md §8.2): the key (and, on submit, the asynchronous header) first,
 * then scripted failures, then the call. A submission carrying `error_after=` (with `error=`) or
 * `block=output` is accepted and its task ends FAILED with the class's code later.
 */
export function omegaHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  route: 'submit' | 'query',
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`omega:${route}`);
    const credential = omegaCredentialOf(call, settings.omegaKeys, route === 'submit');
    const directives = await runPreamble(call, {
      credentialFailure: () => ('refusal' in credential ? credential.refusal : undefined),
      scriptedError: omegaScriptedError,
      handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
    });
    if (!directives || 'refusal' in credential) return;
    if (route === 'submit') submit(call, state, credential.owner, directives);
    else query(call, state, credential.owner);
  };
}

/** `POST …/video-synthesis` (§8.3): checks, then a task scripted by the submission's directives. */
function submit(call: SimulatedCall, state: SimulatorState, owner: string, directives: Directives): void {
  const body = parseJsonObject(call.rawBody);
  if (!body)
    return sendWireError(call.response, omegaInvalidParameter('The request body is not valid JSON.'));
  const parsed = toOmegaSubmission(body);
  if ('refusal' in parsed) return sendWireError(call.response, omegaInvalidParameter(parsed.refusal));
  if (directives.block === 'prompt') {
    return sendWireError(call.response, omegaError(directives.code ?? 'DataInspectionFailed'));
  }
  const { prompt, duration, tier } = parsed.submission;
  const plan = scriptedTaskPlanOf(directives, VIDEO_URL_LIFETIME_SECONDS);
  const task = state.omegaTasks.create(owner, plan, { prompt, duration, tier });
  sendJson(call.response, 200, {
    output: { task_id: task.id, task_status: 'PENDING' },
    request_id: newOmegaRequestId(),
  });
}

/** `GET /api/v1/tasks/{task_id}` (§8.4): the caller's own task; any other id is UNKNOWN. */
function query(call: SimulatedCall, state: SimulatorState, owner: string): void {
  const { taskId } = call.request.params as { taskId: string };
  const task = state.omegaTasks.find(owner, taskId);
  if (!task) return answer(call, { task_id: taskId, task_status: 'UNKNOWN' });
  const step = state.omegaTasks.advance(task);
  if (step.state === 'pending') {
    if (step.answered === 0) return answer(call, { ...times(task), task_status: 'PENDING' });
    task.fields.scheduledAtMs ??= Date.now();
    return answer(call, { ...times(task), task_status: 'RUNNING' });
  }
  if (step.state === 'failed') return answer(call, failedOutput(task, step.scripted));
  const word =
    step.finish === undefined
      ? undefined
      : (FINISH_WORDS[step.finish.toLowerCase()] ?? step.finish.toUpperCase());
  if (word === 'FAILED') return answer(call, failedOutput(task, { errorClass: 'overload', hangMs: 0 }));
  if (word !== undefined) return answer(call, { ...times(task), task_status: word });
  task.fields.videoUrl ??= resultFileUrl(
    call.request,
    state.files.publishContent(
      simulatedMp4(),
      { prefix: 'video', extension: 'mp4' },
      task.plan.urlLifetimeSeconds,
    ),
    task.plan.resultHost,
  );
  answer(
    call,
    {
      ...times(task),
      task_status: 'SUCCEEDED',
      video_url: task.fields.videoUrl,
      orig_prompt: task.fields.prompt,
      actual_prompt: `${task.fields.prompt} Cinematic lighting, smooth camera motion.`.trim(),
    },
    { duration: task.fields.duration, video_count: 1, SR: task.fields.tier },
  );
}

function failedOutput(task: OmegaTask, scripted: ScriptedError): Record<string, unknown> {
  const code = omegaScriptedCode(scripted, 'task');
  return {
    ...times(task),
    task_status: 'FAILED',
    code,
    message: TASK_FAILURE_MESSAGES[code] ?? 'The task failed.',
  };
}

/** The times a query shows: submitted always, scheduled once running, ended once finished. */
function times(task: OmegaTask): Record<string, string> {
  const shown: Record<string, string> = { task_id: task.id, submit_time: omegaLocalTime(task.createdAtMs) };
  const scheduledAtMs = task.fields.scheduledAtMs ?? task.endedAtMs;
  if (scheduledAtMs !== undefined) shown['scheduled_time'] = omegaLocalTime(scheduledAtMs);
  if (task.endedAtMs !== undefined) shown['end_time'] = omegaLocalTime(task.endedAtMs);
  return shown;
}

function answer(call: SimulatedCall, output: Record<string, unknown>, usage?: Record<string, number>): void {
  sendJson(call.response, 200, { request_id: newOmegaRequestId(), output, ...(usage ? { usage } : {}) });
}
