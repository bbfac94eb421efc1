import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { Directives } from '../directives';
import { solidImage } from '../image-bytes.util';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { publishResultFile, resultFileUrl } from '../result-file-url.util';
import { DEFAULT_HANG_MS, scriptedErrorOf } from '../scripted-error';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { pause } from '../timing.util';
import { BetaTransport, betaCredentialOf } from './beta-auth';
import {
  BETA_SUCCESS_CODE,
  BetaCallIdentity,
  betaInvalidParam,
  betaMetadataError,
  betaScriptedError,
} from './beta-errors';
import { toBetaImageSubmission, toBetaResultQuery } from './beta-image-request';
import { BetaEnvelopeMeta, betaEnvelope, newBetaEnvelopeMeta } from './beta-response.builder';
import { BetaTask, BetaTaskOutput, BetaTaskPlan } from './beta-task.store';
import { isBetaVideoReqKey, toBetaVideoSubmission } from './beta-video-request';

const BETA_VERSION = '2022-08-31';
const SUBMIT = 'CVSync2AsyncSubmitTask';
const GET_RESULT = 'CVSync2AsyncGetResult';
/** Image URLs live 24 h†, video URLs 1 hour (upstreams.md §4.5). */
const IMAGE_URL_LIFETIME_SECONDS = 24 * 3600;
const VIDEO_URL_LIFETIME_SECONDS = 3600;
/** The output-side block of a video task (§4.6: Post Video Risk Not Pass). */
const VIDEO_OUTPUT_BLOCK_CODE = '50516';

interface BetaCall {
  call: SimulatedCall;
  state: SimulatorState;
  owner: string;
  body: Record<string, unknown>;
  directives: Directives;
  identity: BetaCallIdentity;
  meta: BetaEnvelopeMeta;
}

/**
 * `POST {base}/?Action=…&Version=2022-08-31` (signed) and `POST {base}/bt?Action=…` (relay): the
 * credential first, then scripted failures, then the action. `error_after=` is never played on the
 * call itself: a submission carrying it makes a task that fails after that many pending answers.
 * Image and video tasks share the actions; the `req_key` tells them apart (§4.3).
 */
export function betaActionHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  transport: BetaTransport,
): SimulatedHandler {
  return async (call) => {
    const query = call.request.query as Record<string, string | string[] | undefined>;
    const action = firstOf(query['Action']);
    const version = firstOf(query['Version']);
    state.stats.countRoute(
      `beta:${action === SUBMIT ? 'submitTask' : action === GET_RESULT ? 'getResult' : 'unknownAction'}`,
    );
    const meta = newBetaEnvelopeMeta();
    const identity = { action, version, requestId: meta.requestId };
    const credential = betaCredentialOf(call, settings, transport);
    const directives = await runPreamble(call, {
      credentialFailure: () =>
        'refusal' in credential
          ? betaMetadataError(401, identity, credential.code, credential.refusal)
          : undefined,
      scriptedError: (scripted) =>
        betaScriptedError(scripted, identity, meta, action === SUBMIT ? 'submit' : 'result'),
      handlesItself: (_scripted, scriptedDirectives) => scriptedDirectives.errorAfter !== undefined,
    });
    if (!directives || 'refusal' in credential) return;
    if (version !== BETA_VERSION || (action !== SUBMIT && action !== GET_RESULT)) {
      const message = `The action ${action || '(none)'} with version ${version || '(none)'} is not supported.`;
      return sendWireError(
        call.response,
        betaMetadataError(400, identity, 'InvalidActionOrVersion', message),
      );
    }
    const body = parseJsonObject(call.rawBody);
    if (!body) return sendWireError(call.response, betaInvalidParam('the body must be a JSON object', meta));
    const betaCall: BetaCall = { call, state, owner: credential.owner, body, directives, identity, meta };
    if (action === SUBMIT) submitTask(betaCall);
    else await answerResult(betaCall);
  };
}

/** §4.3: validates, then stores the task with the plan its directives script (§4.5 lifecycle). */
function submitTask({ call, state, owner, body, directives, identity, meta }: BetaCall): void {
  const parsed = parseSubmission(body, directives);
  if ('refusal' in parsed) return sendWireError(call.response, betaInvalidParam(parsed.refusal, meta));
  const { reqKey, output } = parsed;
  const contentPolicy = {
    errorClass: 'content_policy',
    code: directives.code,
    hangMs: DEFAULT_HANG_MS,
  } as const;
  if (directives.block === 'prompt') {
    return sendWireError(call.response, betaScriptedError(contentPolicy, identity, meta, 'submit'));
  }
  const scripted = scriptedErrorOf(directives);
  const video = output.kind === 'video';
  const plan: BetaTaskPlan = {
    pendingPolls: directives.polls ?? 0,
    readyAtMs: Date.now() + (directives.taskMs ?? 0),
    failure:
      scripted && directives.errorAfter !== undefined
        ? { scripted, after: directives.errorAfter }
        : undefined,
    outputBlock:
      directives.block === 'output'
        ? { ...contentPolicy, code: directives.code ?? (video ? VIDEO_OUTPUT_BLOCK_CODE : undefined) }
        : undefined,
    terminalStatus: directives.finish ?? 'done',
    urlLifetimeSeconds:
      directives.urlTtlSeconds ?? (video ? VIDEO_URL_LIFETIME_SECONDS : IMAGE_URL_LIFETIME_SECONDS),
  };
  const task = state.betaTasks.create({ owner, reqKey, output, plan });
  sendJson(call.response, 200, betaEnvelope(BETA_SUCCESS_CODE, 'Success', { task_id: task.id }, meta));
}

/** A video `req_key` makes a video; any other is read as an image submission (which refuses unknown keys). */
function parseSubmission(
  body: Record<string, unknown>,
  directives: Directives,
): { reqKey: string; output: BetaTaskOutput } | { refusal: string } {
  if (isBetaVideoReqKey(body['req_key'])) {
    const parsed = toBetaVideoSubmission(body);
    return 'refusal' in parsed ? parsed : { reqKey: parsed.submission.reqKey, output: { kind: 'video' } };
  }
  const parsed = toBetaImageSubmission(body);
  if ('refusal' in parsed) return parsed;
  const { reqKey, width, height, forceSingle } = parsed.submission;
  const imageCount = forceSingle ? 1 : (directives.images ?? 1);
  return { reqKey, output: { kind: 'image', width, height, imageCount } };
}

/** §4.4: the caller's own task only; an unknown id is `not_found`, not an error (§4.5). */
async function answerResult({ call, state, owner, body, identity, meta }: BetaCall): Promise<void> {
  const parsed = toBetaResultQuery(body);
  if ('refusal' in parsed) return sendWireError(call.response, betaInvalidParam(parsed.refusal, meta));
  const { query } = parsed;
  const task = state.betaTasks.find(owner, query.taskId);
  if (!task)
    return sendJson(
      call.response,
      200,
      betaEnvelope(BETA_SUCCESS_CODE, 'Success', { status: 'not_found' }, meta),
    );
  if (task.reqKey !== query.reqKey) {
    return sendWireError(call.response, betaInvalidParam('req_key differs from the submission', meta));
  }
  const progress = state.betaTasks.advance(task);
  if ('failure' in progress) {
    const { failure } = progress;
    if (failure.errorClass === 'timeout' && !(await pause(failure.hangMs, call.exchange.signal))) return;
    return sendWireError(call.response, betaScriptedError(failure, identity, meta, 'result'));
  }
  const data: Record<string, unknown> =
    progress.status !== 'done'
      ? { status: progress.status }
      : task.output.kind === 'video'
        ? doneVideoData(call, state, task, query.aigcMeta)
        : doneImageData(call, state, task, task.output, query.returnUrl, query.aigcMeta);
  sendJson(call.response, 200, betaEnvelope(BETA_SUCCESS_CODE, 'Success', data, meta));
}

function doneImageData(
  call: SimulatedCall,
  state: SimulatorState,
  task: BetaTask,
  output: Extract<BetaTaskOutput, { kind: 'image' }>,
  returnUrl: boolean,
  aigcMeta: boolean,
): Record<string, unknown> {
  const image = solidImage('png', output.width, output.height);
  if (returnUrl && !task.imageUrls) {
    task.imageUrls = Array.from({ length: output.imageCount }, () =>
      publishResultFile(call.request, state.files, image, task.plan.urlLifetimeSeconds),
    );
  }
  return {
    status: 'done',
    binary_data_base64: Array.from({ length: output.imageCount }, () => image.base64),
    image_urls: returnUrl ? task.imageUrls : null,
    ...(aigcMeta ? { aigc_meta_tagged: true } : {}),
  };
}

/** A done video task (§4.4): its `video_url`, published once and kept (it lives an hour). */
function doneVideoData(
  call: SimulatedCall,
  state: SimulatorState,
  task: BetaTask,
  aigcMeta: boolean,
): Record<string, unknown> {
  if (!task.videoUrl) {
    const name = state.files.publishContent(
      simulatedMp4(),
      { prefix: 'video', extension: 'mp4' },
      task.plan.urlLifetimeSeconds,
    );
    task.videoUrl = resultFileUrl(call.request, name);
  }
  return { status: 'done', video_url: task.videoUrl, ...(aigcMeta ? { aigc_meta_tagged: true } : {}) };
}

function firstOf(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
