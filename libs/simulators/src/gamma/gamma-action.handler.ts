import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { scriptedTaskPlanOf } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { gammaCredentialOf } from './gamma-auth';
import { GammaRefusal, gammaError, gammaScriptedError, newGammaRequestId } from './gamma-errors';
import { toGammaSubmission } from './gamma-submission';
import { gammaTaskDetailOf } from './gamma-task-detail.builder';
import { gammaTaskIdOf } from './gamma-tasks';

const VERSION = '2018-07-17';
const CREATE = 'CreateAigcVideoTask';
const DESCRIBE = 'DescribeTaskDetail';
/** A Temporary file lives a day‡ (until `ExpireTime`†, §5.5); a Permanent one stays (30 days here). */
const TEMPORARY_LINK_SECONDS = 24 * 3600;
const PERMANENT_LINK_SECONDS = 30 * 24 * 3600;

interface GammaCall {
  call: SimulatedCall;
  state: SimulatorState;
  owner: string;
  body: Record<string, unknown>;
  directives: Directives;
  requestId: string;
}

/**
 * `POST {base}/` with `X-Gamma-Action` (upstreams.md §5.1): the signature first, then scripted
 * failures, then the action. Every answer is HTTP 200; errors are `Response.Error` (§5.3).
 * `error_after=` is never played on a call: a create carrying it makes a task that fails later, and
 * a query ignores it (so a base URL `/@error=…;error_after=n` scripts every create).
 */
export function gammaActionHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    const action = headerOf(call, 'x-gamma-action');
    state.stats.countRoute(
      `gamma:${action === CREATE ? 'createAigcVideoTask' : action === DESCRIBE ? 'describeTaskDetail' : 'unknownAction'}`,
    );
    const requestId = newGammaRequestId();
    const credential = gammaCredentialOf(call, settings, requestId);
    const directives = await runPreamble(call, {
      credentialFailure: () => ('refusal' in credential ? credential.refusal : undefined),
      scriptedError: (scripted) => gammaScriptedError(scripted, requestId),
      handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
    });
    if (!directives || 'refusal' in credential) return;
    const refuse = (refusal: GammaRefusal) =>
      sendWireError(call.response, gammaError(refusal.code, refusal.message, requestId));
    if (action !== CREATE && action !== DESCRIBE) {
      return refuse({
        code: 'InvalidParameter',
        message: `The action ${action || '(none)'} is not supported.`,
      });
    }
    if (headerOf(call, 'x-gamma-version') !== VERSION) {
      return refuse({ code: 'InvalidParameter', message: `The version must be ${VERSION}.` });
    }
    const body = parseJsonObject(call.rawBody);
    if (!body) return refuse({ code: 'InvalidParameter', message: 'The body must be a JSON object.' });
    const subApp = subAppRefusal(body['SubAppId'], credential.owner);
    if (subApp) return refuse(subApp);
    const gammaCall: GammaCall = { call, state, owner: credential.owner, body, directives, requestId };
    if (action === CREATE) createTask(gammaCall, refuse);
    else describeTask(gammaCall, refuse);
  };
}

/** §5.4: checks, then the task a SessionId already made, or a new one scripted by the directives. */
function createTask(
  { call, state, owner, body, directives, requestId }: GammaCall,
  refuse: (refusal: GammaRefusal) => void,
): void {
  const parsed = toGammaSubmission(body);
  if ('refusal' in parsed) return refuse(parsed.refusal);
  const submission = parsed.value;
  if (directives.block === 'prompt') {
    return refuse({
      code: directives.code ?? 'InvalidParameterValue.ContentAudit',
      message: 'The input did not pass the content audit.',
    });
  }
  const earlier =
    submission.sessionId === undefined ? undefined : state.gammaTasks.bySession(owner, submission.sessionId);
  if (earlier) {
    state.stats.countRoute('gamma:sessionReplay');
    return sendJson(call.response, 200, {
      Response: { TaskId: gammaTaskIdOf(earlier), RequestId: requestId },
    });
  }
  const linkSeconds =
    submission.storageMode === 'Permanent' ? PERMANENT_LINK_SECONDS : TEMPORARY_LINK_SECONDS;
  const task = state.gammaTasks.tasks.create(owner, scriptedTaskPlanOf(directives, linkSeconds), {
    submission,
    resultHost: directives.resultHost,
    expiredLinks: directives.expiredLinks ?? 0,
    linksIssued: 0,
  });
  if (submission.sessionId !== undefined) state.gammaTasks.rememberSession(owner, submission.sessionId, task);
  state.stats.countRoute('gamma:taskCreated');
  sendJson(call.response, 200, { Response: { TaskId: gammaTaskIdOf(task), RequestId: requestId } });
}

/** §5.5: the SubAppId's own task, for 3 days; any other is `ResourceNotFound`. */
function describeTask(
  { call, state, owner, body, requestId }: GammaCall,
  refuse: (refusal: GammaRefusal) => void,
): void {
  const taskId = body['TaskId'];
  if (taskId === undefined)
    return refuse({ code: 'MissingParameter', message: 'The parameter TaskId is missing.' });
  if (typeof taskId !== 'string')
    return refuse({ code: 'InvalidParameterValue', message: 'TaskId must be a string.' });
  const task = state.gammaTasks.byTaskId(owner, taskId);
  if (!task) return refuse({ code: 'ResourceNotFound', message: `The task ${taskId} does not exist.` });
  const step = state.gammaTasks.tasks.advance(task);
  sendJson(call.response, 200, {
    Response: { ...gammaTaskDetailOf(call, state, task, step), RequestId: requestId },
  });
}

/** Every body names the SubAppId of the signing key (§5.4); another one is not this key's to use. */
function subAppRefusal(subAppId: unknown, owner: string): GammaRefusal | undefined {
  if (subAppId === undefined)
    return { code: 'MissingParameter', message: 'The parameter SubAppId is missing.' };
  if (!Number.isSafeInteger(subAppId)) {
    return { code: 'InvalidParameterValue', message: 'SubAppId must be an integer.' };
  }
  if (String(subAppId) !== owner) {
    return {
      code: 'UnauthorizedOperation',
      message: `The SubAppId ${String(subAppId)} does not belong to this key.`,
    };
  }
  return undefined;
}

function headerOf(call: SimulatedCall, name: string): string {
  const value = call.request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
