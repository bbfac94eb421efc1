import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { scriptedTaskPlanOf, ScriptedTask } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { lambdaCredentialOf } from './lambda-auth';
import { lambdaError, lambdaFailReason, lambdaScriptedError } from './lambda-errors';
import { LambdaSubmission, lambdaActionOf, toLambdaSubmission } from './lambda-submission';
import { clipsOf, LambdaTaskFields } from './lambda-tasks';
import { LambdaTaskMoment, lambdaTaskView } from './lambda-task.view';

/** Result links live 24 hours by project convention (§9.4 does not state their lifetime). */
const URL_LIFETIME_SECONDS = 24 * 3600;
const SUCCESS = { code: 'success', message: '' };
/** Progress an IN_PROGRESS answer reports: 30% at the first, 20 points more at each, at most 90%. */
const FIRST_RUNNING_PROGRESS = 30;
const RUNNING_PROGRESS_STEP = 20;
const MAX_RUNNING_PROGRESS = 90;

type LambdaTask = ScriptedTask<LambdaTaskFields>;

/**
 * `POST {base}/lambda/submit/{action}` (upstreams.md §9.2, §9.3): the key, scripted failures, the
 * action, the body's checks, a continuation's clip, then a task scripted by the submission's
 * directives (`polls=`, `task_ms=`, `unknown=`, `error=…,error_after=`, `finish=`, `url_ttl=`).
 */
export function lambdaSubmitHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('lambda:submit');
    const owner = await admitted(call, settings);
    if (!owner) return;
    const { action: segment } = call.request.params as { action: string };
    const action = lambdaActionOf(segment);
    if (!action) {
      return sendWireError(
        call.response,
        lambdaError(400, 'invalid_action', 'action must be music or lyrics'),
      );
    }
    const body = parseJsonObject(call.rawBody);
    if (!body)
      return sendWireError(
        call.response,
        lambdaError(400, 'invalid_parameter', 'the body must be a JSON object'),
      );
    const parsed = toLambdaSubmission(action, body);
    if ('refusal' in parsed) return sendWireError(call.response, parsed.refusal);
    const { directives } = owner;
    if (directives.block === 'prompt') {
      const policy = lambdaError(
        400,
        directives.code ?? 'content_policy_violation',
        'the prompt violates the content policy',
      );
      return sendWireError(call.response, policy);
    }
    const refusal = continuationRefusal(state, owner.key, parsed.submission);
    if (refusal) return sendWireError(call.response, refusal);
    const task = state.lambdaTasks.create(owner.key, scriptedTaskPlanOf(directives, URL_LIFETIME_SECONDS), {
      submission: parsed.submission,
      clips: clipsOf(parsed.submission),
      unknownLeft: directives.unknownPolls ?? 0,
    });
    sendJson(call.response, 200, { ...SUCCESS, data: task.id });
  };
}

/** `GET {base}/lambda/fetch/{id}`: one of the key's tasks, moved on by one query; else 404. */
export function lambdaFetchOneHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('lambda:fetch-one');
    const owner = await admitted(call, settings);
    if (!owner) return;
    const { id } = call.request.params as { id: string };
    const task = state.lambdaTasks.find(owner.key, id);
    if (!task)
      return sendWireError(call.response, lambdaError(404, 'task_not_found', `task ${id} not found`));
    sendJson(call.response, 200, { ...SUCCESS, data: answerOf(call, state, task) });
  };
}

/**
 * `POST {base}/lambda/fetch` with `{"ids": [...]}`: the key's tasks among the ids, each moved on by
 * one query, in the order asked (an id named twice is answered once); unknown and other keys' ids
 * are left out. Tests count these calls (`byRoute['lambda:fetch']`) to see the gateway batch.
 */
export function lambdaFetchManyHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('lambda:fetch');
    const owner = await admitted(call, settings);
    if (!owner) return;
    const ids = parseJsonObject(call.rawBody)?.ids;
    if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) {
      return sendWireError(
        call.response,
        lambdaError(400, 'invalid_parameter', 'ids must be a list of task ids'),
      );
    }
    const data = [...new Set(ids)].flatMap((id) => {
      const task = state.lambdaTasks.find(owner.key, id);
      return task ? [answerOf(call, state, task)] : [];
    });
    sendJson(call.response, 200, { ...SUCCESS, data });
  };
}

/** The key (an owner) and the directives, once the preamble let the call through. */
async function admitted(
  call: SimulatedCall,
  settings: SimulatorSettings,
): Promise<{ key: string; directives: Directives } | undefined> {
  const credential = lambdaCredentialOf(call.request.headers, settings.lambdaKeys);
  const directives = await runPreamble(call, {
    credentialFailure: () => ('refusal' in credential ? credential.refusal : undefined),
    scriptedError: lambdaScriptedError,
    // A submission carrying error_after= makes a task that fails later, with a fail_reason.
    handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
  });
  if (!directives || 'refusal' in credential) return undefined;
  return { key: credential.owner, directives };
}

/** A continuation must name a music task of the same key and one of its clips. */
function continuationRefusal(state: SimulatorState, owner: string, submission: LambdaSubmission) {
  const { continuation } = submission;
  if (!continuation) return undefined;
  const source = state.lambdaTasks.find(owner, continuation.taskId);
  if (!source || source.fields.submission.action !== 'music') {
    return lambdaError(
      400,
      'invalid_parameter',
      `task_id ${continuation.taskId} is not one of your music tasks`,
    );
  }
  if (!source.fields.clips.some((clip) => clip.id === continuation.clipId)) {
    return lambdaError(
      400,
      'invalid_parameter',
      `continue_clip_id is not a clip of task ${continuation.taskId}`,
    );
  }
  return undefined;
}

function answerOf(call: SimulatedCall, state: SimulatorState, task: LambdaTask): Record<string, unknown> {
  return lambdaTaskView(call.request, state, task, momentOf(state, task));
}

/**
 * One query's answer: `unknown=` UNKNOWNs first; then SUBMITTED, QUEUED, and IN_PROGRESS with clips
 * streaming while the task is pending; then SUCCESS with complete clips. A scripted failure answers
 * FAILURE (or `finish=`'s word) with its fail_reason; `finish=` alone ends on its word.
 */
function momentOf(state: SimulatorState, task: LambdaTask): LambdaTaskMoment {
  if (task.fields.unknownLeft > 0) {
    task.fields.unknownLeft -= 1;
    return { status: 'UNKNOWN', failReason: '', progress: 0, clips: 'queued' };
  }
  const step = state.lambdaTasks.advance(task);
  if (step.state === 'pending') {
    if (step.answered === 0) return { status: 'SUBMITTED', failReason: '', progress: 0, clips: 'submitted' };
    if (step.answered === 1) return { status: 'QUEUED', failReason: '', progress: 0, clips: 'queued' };
    task.fields.startedAtMs ??= Date.now();
    const progress = FIRST_RUNNING_PROGRESS + RUNNING_PROGRESS_STEP * (step.answered - 2);
    return {
      status: 'IN_PROGRESS',
      failReason: '',
      progress: Math.min(MAX_RUNNING_PROGRESS, progress),
      clips: 'streaming',
    };
  }
  task.fields.startedAtMs ??= task.endedAtMs;
  if (step.state === 'failed') {
    const failReason = lambdaFailReason(step.scripted);
    return { status: task.plan.finish ?? 'FAILURE', failReason, progress: 100, clips: 'error' };
  }
  if (step.finish !== undefined && step.finish !== 'SUCCESS') {
    return { status: step.finish, failReason: '', progress: 100, clips: 'queued' };
  }
  return { status: 'SUCCESS', failReason: '', progress: 100, clips: 'complete' };
}
