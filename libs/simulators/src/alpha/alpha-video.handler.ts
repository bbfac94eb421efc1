import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { Directives } from '../directives';
import { solidImage } from '../image-bytes.util';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { resultFileUrl } from '../result-file-url.util';
import { ScriptedTask, scriptedTaskPlanOf } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { pause } from '../timing.util';
import { alphaCredentialOf } from './alpha-auth';
import { alphaError, alphaScriptedError, alphaScriptedReason, isAlphaReason } from './alpha-errors';
import { alphaFrameOf } from './alpha-models';
import { AlphaEndpoint, toAlphaSubmission } from './alpha-submission';
import { AlphaTaskFields, newAlphaId } from './alpha-tasks';

/** §3.7: the request body is at most 20 MB. */
const BODY_LIMIT_BYTES = 20 * 1024 * 1024;
/** Result URLs live 24 hours (§3.5). */
const URL_LIFETIME_SECONDS = 24 * 3600;
/** Credits per second by resolution (project convention: the §3.3 example's 10 credits for 5 s at 720p). */
const CREDITS_PER_SECOND: Readonly<Record<string, number>> = { '540p': 1, '720p': 2, '1080p': 4 };
const VIDEO_FILE = { prefix: 'video', extension: 'mp4' };

/**
 * `POST {base}/ent/v2/{text2video,img2video,start-end2video,reference2video}` (upstreams.md §3.2,
 * §3.3): the key, scripted failures, the 20 MB limit, the checks, then a task scripted by the
 * submission's directives. `error_after=` is never played on the call itself: a submission carrying
 * it makes a task that fails later, as `block=output` and `finish=` do.
 */
export function alphaSubmitHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  endpoint: AlphaEndpoint,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`alpha:${endpoint}`);
    const owner = await admitted(call, settings, 'submit');
    if (!owner) return;
    const { directives } = owner;
    if (Buffer.byteLength(call.rawBody) > BODY_LIMIT_BYTES) {
      return sendWireError(call.response, alphaError('BadRequest', 'the request body exceeds 20 MB', 413));
    }
    const body = parseJsonObject(call.rawBody);
    if (!body)
      return sendWireError(call.response, alphaError('BadRequest', 'the body must be a JSON object'));
    const parsed = toAlphaSubmission(endpoint, body);
    if ('refusal' in parsed) return sendWireError(call.response, parsed.refusal);
    if (directives.block === 'prompt') {
      const reason =
        directives.code !== undefined && isAlphaReason(directives.code)
          ? directives.code
          : 'TaskPromptPolicyViolation';
      return sendWireError(call.response, alphaError(reason));
    }
    const { submission } = parsed;
    const task = state.alphaTasks.create(owner.key, scriptedTaskPlanOf(directives, URL_LIFETIME_SECONDS), {
      submission,
      credits: submission.duration * (CREDITS_PER_SECOND[submission.resolution] ?? 1),
      expiredLinksLeft: directives.expiredLinks ?? 0,
      finishErrCode:
        directives.code !== undefined && isAlphaReason(directives.code)
          ? directives.code
          : 'InternalServiceFailure',
    });
    sendJson(call.response, 200, submitAnswer(task, endpoint));
  };
}

/**
 * `GET {base}/ent/v2/tasks/{id}/creations` (§3.4, §3.5): `queueing` at the first pending answer,
 * `processing` after, then `success` with fresh links (each answer signs its own, living `url_ttl=`
 * seconds, 24 hours by default), or `failed` with the scripted `err_code`, or `finish=`'s word.
 */
export function alphaCreationsHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('alpha:creations');
    const owner = await admitted(call, settings, 'query');
    if (!owner) return;
    const { id } = call.request.params as { id: string };
    const task = state.alphaTasks.find(owner.key, id);
    if (!task) return sendWireError(call.response, alphaError('TaskNotFound', `task ${id} not found`, 404));
    const step = state.alphaTasks.advance(task);
    if (step.state === 'pending') {
      return sendJson(
        call.response,
        200,
        creationsAnswer(task, step.answered === 0 ? 'queueing' : 'processing'),
      );
    }
    if (step.state === 'failed') {
      if (
        step.scripted.errorClass === 'timeout' &&
        !(await pause(step.scripted.hangMs, call.exchange.signal))
      )
        return;
      return sendJson(
        call.response,
        200,
        creationsAnswer(task, 'failed', alphaScriptedReason(step.scripted, 'task')),
      );
    }
    if (step.finish === 'failed') {
      return sendJson(call.response, 200, creationsAnswer(task, 'failed', task.fields.finishErrCode));
    }
    if (step.finish !== undefined) return sendJson(call.response, 200, creationsAnswer(task, step.finish));
    sendJson(call.response, 200, creationsAnswer(task, 'success', '', creationsOf(call, state, task)));
  };
}

/** The key (an owner) and the directives, once the preamble let the call through. */
async function admitted(
  call: SimulatedCall,
  settings: SimulatorSettings,
  stage: 'submit' | 'query',
): Promise<{ key: string; directives: Directives } | undefined> {
  const credential = alphaCredentialOf(call.request.headers, settings.alphaKeys);
  const directives = await runPreamble(call, {
    credentialFailure: () => ('refusal' in credential ? credential.refusal : undefined),
    scriptedError: (scripted) => alphaScriptedError(scripted, stage),
    handlesItself: (_scripted, scripted) => scripted.errorAfter !== undefined,
  });
  if (!directives || 'refusal' in credential) return undefined;
  return { key: credential.owner, directives };
}

/** The §3.3 submit answer: the task as the upstream filled it in. */
function submitAnswer(task: ScriptedTask<AlphaTaskFields>, endpoint: AlphaEndpoint): Record<string, unknown> {
  const { submission } = task.fields;
  const inputs: Record<string, unknown> =
    endpoint === 'reference2video' && submission.subjects.length > 0
      ? { subjects: submission.subjects }
      : { images: submission.images };
  return {
    task_id: task.id,
    state: 'created',
    model: submission.model,
    prompt: submission.prompt,
    ...inputs,
    duration: submission.duration,
    seed: submission.seed,
    aspect_ratio: submission.aspectRatio,
    resolution: submission.resolution,
    movement_amplitude: submission.movementAmplitude,
    bgm: submission.bgm,
    payload: submission.payload,
    off_peak: submission.offPeak,
    credits: task.fields.credits,
    created_at: new Date(task.createdAtMs).toISOString(),
  };
}

function creationsAnswer(
  task: ScriptedTask<AlphaTaskFields>,
  state: string,
  errCode = '',
  creations: unknown[] = [],
): Record<string, unknown> {
  const { submission, credits } = task.fields;
  return {
    id: task.id,
    state,
    err_code: errCode,
    credits: state === 'failed' ? 0 : credits,
    payload: submission.payload,
    bgm: submission.bgm,
    off_peak: submission.offPeak,
    creations,
  };
}

/** One creation: the video, its cover (a JPEG of the video's frame) and a watermarked copy. */
function creationsOf(
  call: SimulatedCall,
  state: SimulatorState,
  task: ScriptedTask<AlphaTaskFields>,
): unknown[] {
  const { fields } = task;
  fields.creationId ??= newAlphaId();
  const expired = fields.expiredLinksLeft > 0;
  if (expired) fields.expiredLinksLeft -= 1;
  const lifetime = expired ? 0 : task.plan.urlLifetimeSeconds;
  const { width, height } = alphaFrameOf(fields.submission.resolution, fields.submission.aspectRatio);
  const video = state.files.publishContent(simulatedMp4(), VIDEO_FILE, lifetime);
  const cover = state.files.publish(solidImage('jpeg', width, height), lifetime);
  const watermarked = state.files.publishContent(simulatedMp4(), VIDEO_FILE, lifetime);
  return [
    {
      id: fields.creationId,
      url: resultFileUrl(call.request, video),
      cover_url: resultFileUrl(call.request, cover),
      watermarked_url: resultFileUrl(call.request, watermarked),
    },
  ];
}
