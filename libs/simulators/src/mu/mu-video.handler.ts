import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { resultFileUrl } from '../result-file-url.util';
import { pause } from '../timing.util';
import { ScriptedError } from '../scripted-error';
import { scriptedTaskPlanOf, ScriptedTask } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { muCredentialOf } from './mu-auth';
import {
  MU_INPUT_SENSITIVE,
  muBaseResp,
  muError,
  muInvalidParams,
  muScriptedCode,
  muScriptedError,
} from './mu-errors';
import { MU_FRAME_SIZES } from './mu-models';
import { toMuSubmission } from './mu-submission';
import { MuTaskFields } from './mu-tasks';

/** Download links live about 9 hours† (upstreams.md §7.4). */
const DOWNLOAD_URL_LIFETIME_SECONDS = 9 * 3600;
/** Waiting words, in the order a task goes through them; the last repeats until the end. */
const PENDING_STATUSES = ['Preparing', 'Queueing', 'Processing'] as const;
const SUCCESS = 'Success';
const FAIL = 'Fail';

type MuRoute = 'submit' | 'query' | 'retrieveFile';

/**
 * The three mu calls (upstreams.md §7.2): the key first, then scripted failures, then the call. A
 * submission carrying `error_after=` (with `error=`) or `block=output` is accepted and its task ends in
 * `Fail` with the class's code later, so those two are never played on a call itself.
 */
export function muHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  route: MuRoute,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`mu:${route}`);
    const credential = muCredentialOf(call, settings.muKeys);
    const directives = await runPreamble(call, {
      credentialFailure: () => ('refusal' in credential ? credential.refusal : undefined),
      scriptedError: muScriptedError,
      handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
    });
    if (!directives || 'refusal' in credential) return;
    if (route === 'submit') return submit(call, state, credential.owner, directives);
    if (route === 'query') return query(call, state, credential.owner);
    return retrieveFile(call, state, credential.owner, directives);
  };
}

/** `POST /v1/video_generation` (§7.3): checks, then a task scripted by the submission's directives. */
function submit(call: SimulatedCall, state: SimulatorState, owner: string, directives: Directives): void {
  const body = parseJsonObject(call.rawBody);
  if (!body) return sendWireError(call.response, muInvalidParams('the body must be a JSON object'));
  const parsed = toMuSubmission(body);
  if ('refusal' in parsed) return sendWireError(call.response, muInvalidParams(parsed.refusal));
  if (directives.block === 'prompt') {
    const code =
      directives.code !== undefined && /^\d+$/.test(directives.code)
        ? Number(directives.code)
        : MU_INPUT_SENSITIVE;
    return sendWireError(call.response, muError(code));
  }
  const { model, duration, resolution } = parsed.submission;
  const plan = scriptedTaskPlanOf(directives, DOWNLOAD_URL_LIFETIME_SECONDS);
  const task = state.muTasks.tasks.create(owner, plan, { model, duration, resolution });
  sendJson(call.response, 200, { task_id: task.id, base_resp: muBaseResp(0) });
}

/** `GET /v1/query/video_generation?task_id=` (§7.4): the caller's own task only. */
async function query(call: SimulatedCall, state: SimulatorState, owner: string): Promise<void> {
  const taskId = queryParameter(call, 'task_id');
  if (!taskId) return sendWireError(call.response, muInvalidParams('task_id is required'));
  const task = state.muTasks.tasks.find(owner, taskId);
  if (!task) return sendWireError(call.response, muInvalidParams(`task ${taskId} not found`));
  const step = state.muTasks.tasks.advance(task);
  if (step.state === 'pending') {
    const status = PENDING_STATUSES[Math.min(step.answered, PENDING_STATUSES.length - 1)];
    return sendJson(call.response, 200, taskAnswer(task, status, ''));
  }
  if (step.state === 'failed') return answerFailure(call, task, step.scripted);
  if (step.finish !== undefined && step.finish.toLowerCase() !== SUCCESS.toLowerCase()) {
    // `finish=Fail` is a plain Fail; any other word is one outside §7.4 (an unknown status).
    const word = step.finish.toLowerCase() === FAIL.toLowerCase() ? FAIL : step.finish;
    return sendJson(call.response, 200, taskAnswer(task, word, ''));
  }
  const fileId = state.muTasks.fileOf(task.id, task.fields);
  const frame = MU_FRAME_SIZES[task.fields.resolution];
  sendJson(call.response, 200, {
    ...taskAnswer(task, SUCCESS, fileId),
    video_width: frame.width,
    video_height: frame.height,
  });
}

/**
 * A scripted task failure: `Fail` with the class's code in `base_resp` (an output moderation verdict is
 * 1027). A scripted `timeout` stalls the query for its hang time first, as a stuck upstream would.
 */
async function answerFailure(
  call: SimulatedCall,
  task: ScriptedTask<MuTaskFields>,
  scripted: ScriptedError,
): Promise<void> {
  if (scripted.errorClass === 'timeout' && !(await pause(scripted.hangMs, call.exchange.signal))) return;
  sendJson(call.response, 200, {
    ...taskAnswer(task, FAIL, ''),
    base_resp: muBaseResp(muScriptedCode(scripted, 'task')),
  });
}

/** `GET /v1/files/retrieve?file_id=` (§7.4): a fresh download link on every call. */
function retrieveFile(
  call: SimulatedCall,
  state: SimulatorState,
  owner: string,
  directives: Directives,
): void {
  const fileId = queryParameter(call, 'file_id');
  if (!fileId || !/^\d+$/.test(fileId))
    return sendWireError(call.response, muInvalidParams('file_id must be a number'));
  const task = state.muTasks.taskOfFile(owner, fileId);
  if (!task) return sendWireError(call.response, muInvalidParams(`file ${fileId} not found`));
  const video = simulatedMp4();
  const lifetimeSeconds = directives.urlTtlSeconds ?? task.plan.urlLifetimeSeconds;
  const name = state.files.publishContent(video, { prefix: 'video', extension: 'mp4' }, lifetimeSeconds);
  sendJson(call.response, 200, {
    file: {
      // An integer here, a string in the query answer (§7.4).
      file_id: Number(fileId),
      bytes: video.bytes.length,
      created_at: Math.floor((task.endedAtMs ?? Date.now()) / 1000),
      filename: 'output.mp4',
      purpose: 'video_generation',
      download_url: resultFileUrl(call.request, name, task.plan.resultHost),
    },
    base_resp: muBaseResp(0),
  });
}

function taskAnswer(
  task: ScriptedTask<MuTaskFields>,
  status: string,
  fileId: string,
): Record<string, unknown> {
  return { task_id: task.id, status, file_id: fileId, base_resp: muBaseResp(0) };
}

function queryParameter(call: SimulatedCall, name: string): string | undefined {
  const value = (call.request.query as Record<string, string | string[] | undefined>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}
