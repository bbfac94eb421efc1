import { randomUUID } from 'node:crypto';
import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { randomAlphanumeric } from '../random-id.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { scriptedTaskPlanOf, ScriptedTaskStep } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { currentVideoLink } from '../video-result-link.util';
import { gammaOfficialError, gammaOfficialScriptedError } from './gamma-official-errors';
import { GammaOfficialEndpoint, toGammaOfficialSubmission } from './gamma-official-submission';
import { GAMMA_OFFICIAL_RETENTION_MS, GammaOfficialTask } from './gamma-official-tasks';
import { verifyGammaToken } from './gamma-token.verifier';

/** Result URLs are kept 30 days (upstreams.md §5.8). */
const LINK_SECONDS = GAMMA_OFFICIAL_RETENTION_MS / 1000;
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  content_policy: 'The generated video did not pass the content review.',
  timeout: 'The task timed out.',
};

/**
 * `POST {base}/v1/videos/{text2video,image2video,omni-video}` (upstreams.md §5.8): the token, scripted
 * failures, the checks, then a task scripted by the create's directives, or the task an earlier create
 * with the same `external_task_id` made. `error_after=` is never played on the call: a create carrying
 * it makes a task that fails later.
 */
export function gammaOfficialCreateHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  endpoint: GammaOfficialEndpoint,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`gamma:official:${endpoint}`);
    const requestId = randomUUID();
    const admittedCall = await admitted(call, settings, requestId);
    if (!admittedCall) return;
    const { owner, directives } = admittedCall;
    const refuse = (code: number, message: string) =>
      sendWireError(call.response, gammaOfficialError(code, message, requestId));
    const body = parseJsonObject(call.rawBody);
    if (!body) return refuse(1200, 'The body must be a JSON object.');
    const parsed = toGammaOfficialSubmission(endpoint, body);
    if ('refusal' in parsed) return refuse(parsed.refusal.code, parsed.refusal.message);
    if (directives.block === 'prompt') {
      return refuse(Number(directives.code) || 1301, 'The prompt did not pass the content safety check.');
    }
    const registry = state.gammaTasks.official;
    const { externalTaskId } = parsed.value;
    const earlier = externalTaskId === '' ? undefined : registry.byExternalId(owner, externalTaskId);
    if (earlier) {
      state.stats.countRoute('gamma:official:externalIdReplay');
      return sendJson(call.response, 200, envelope(requestId, taskData(call, state, earlier, 'submitted')));
    }
    const nowMs = Date.now();
    const task = registry.tasks.create(owner, scriptedTaskPlanOf(directives, LINK_SECONDS), {
      submission: parsed.value,
      resultHost: directives.resultHost,
      expiredLinks: directives.expiredLinks ?? 0,
      linksIssued: 0,
      updatedAtMs: nowMs,
    });
    if (externalTaskId !== '') registry.rememberExternalId(owner, externalTaskId, task);
    state.stats.countRoute('gamma:official:taskCreated');
    sendJson(call.response, 200, envelope(requestId, taskData(call, state, task, 'submitted')));
  };
}

/**
 * `GET {base}/v1/videos/{endpoint}/{task_id}`: the key's own task created on that endpoint, for 30
 * days; `submitted` at the first pending answer, `processing` after, then `succeed` with a link (kept
 * until it expires, `url_ttl=` seconds, 30 days by default) or `failed` with why.
 */
export function gammaOfficialQueryHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  endpoint: GammaOfficialEndpoint,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`gamma:official:query`);
    const requestId = randomUUID();
    const admittedCall = await admitted(call, settings, requestId);
    if (!admittedCall) return;
    const { taskId } = call.request.params as { taskId: string };
    const task = state.gammaTasks.official.tasks.find(admittedCall.owner, taskId);
    if (!task || task.fields.submission.endpoint !== endpoint) {
      return sendWireError(call.response, gammaOfficialError(1203, `task ${taskId} not found`, requestId));
    }
    const step = state.gammaTasks.official.tasks.advance(task);
    sendJson(call.response, 200, envelope(requestId, taskData(call, state, task, statusOf(step))));
  };
}

async function admitted(
  call: SimulatedCall,
  settings: SimulatorSettings,
  requestId: string,
): Promise<{ owner: string; directives: Directives } | undefined> {
  const verification = verifyGammaToken(call.request.headers, settings.gammaOfficialSecrets);
  const directives = await runPreamble(call, {
    credentialFailure: () =>
      'refusal' in verification
        ? gammaOfficialError(verification.refusal.code, verification.refusal.message, requestId)
        : undefined,
    scriptedError: (scripted) => gammaOfficialScriptedError(scripted, requestId),
    handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
  });
  if (!directives || 'refusal' in verification) return undefined;
  return { owner: verification.accessKey, directives };
}

type ShownStatus = { status: 'submitted' | 'processing' | 'succeed' } | { status: 'failed'; message: string };

function statusOf(step: ScriptedTaskStep): ShownStatus {
  if (step.state === 'pending') return { status: step.answered === 0 ? 'submitted' : 'processing' };
  if (step.state === 'failed') {
    return {
      status: 'failed',
      message: FAILURE_MESSAGES[step.scripted.errorClass] ?? 'The video could not be generated.',
    };
  }
  if (step.finish !== undefined && step.finish !== 'succeed') {
    return step.finish === 'failed'
      ? { status: 'failed', message: 'The video could not be generated.' }
      : ({ status: step.finish } as ShownStatus);
  }
  return { status: 'succeed' };
}

function envelope(requestId: string, data: Record<string, unknown>): Record<string, unknown> {
  return { code: 0, message: 'SUCCEED', request_id: requestId, data };
}

/** The task as §5.8 shows it: millisecond times, `task_result` only once it succeeded. */
function taskData(
  call: SimulatedCall,
  state: SimulatorState,
  task: GammaOfficialTask,
  shown: ShownStatus | 'submitted',
): Record<string, unknown> {
  const { status, message } =
    shown === 'submitted' ? { status: 'submitted', message: '' } : { message: '', ...shown };
  if (task.endedAtMs !== undefined) task.fields.updatedAtMs = task.endedAtMs;
  return {
    task_id: task.id,
    task_status: status,
    task_status_msg: message,
    task_info: { external_task_id: task.fields.submission.externalTaskId },
    created_at: task.createdAtMs,
    updated_at: task.fields.updatedAtMs,
    ...(status === 'succeed'
      ? {
          task_result: { videos: [videoOf(call, state, task)] },
          final_unit_deduction: String(task.fields.submission.duration / 5),
        }
      : {}),
  };
}

/** The result video; its link is kept until it expires, then the next query publishes a fresh one. */
function videoOf(
  call: SimulatedCall,
  state: SimulatorState,
  task: GammaOfficialTask,
): Record<string, unknown> {
  const { fields } = task;
  const link = currentVideoLink(call.request, state.files, fields, {
    expiredLinks: fields.expiredLinks,
    urlLifetimeSeconds: task.plan.urlLifetimeSeconds,
    resultHost: fields.resultHost,
  });
  fields.videoId ??= randomAlphanumeric(16);
  return {
    id: fields.videoId,
    url: link.url,
    duration: fields.submission.duration.toFixed(1),
  };
}
