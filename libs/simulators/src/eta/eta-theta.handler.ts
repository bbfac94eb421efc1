import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { bearerKeyOf } from '../bearer-key.util';
import { Directives } from '../directives';
import { solidImage } from '../image-bytes.util';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { publishResultFile, resultFileUrl } from '../result-file-url.util';
import { ScriptedError } from '../scripted-error';
import { scriptedTaskPlanOf } from '../scripted-task.store';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { etaCredentialFailure } from './eta-auth';
import {
  ETA_INPUT_TEXT_SENSITIVE,
  ETA_OUTPUT_VIDEO_SENSITIVE,
  etaInvalidJson,
  etaInvalidParameter,
  etaNotFound,
  etaScriptedError,
  etaSensitiveContent,
} from './eta-errors';
import { newEtaRequestId } from './eta-request-id.util';
import { THETA_FRAMES_PER_SECOND, thetaFrameSize } from './eta-theta-models';
import { toThetaJob } from './eta-theta-request';
import { isTheta2Model, toTheta2Job } from './eta-theta2-request';
import { ThetaTask } from './eta-theta-tasks';
import { thetaTaskList } from './eta-theta-list';

/** Result links live 24 hours (upstreams.md §6.2). */
const URL_LIFETIME_SECONDS = 24 * 3600;
/** Statuses of a task still on its way; anything else has ended. */
const OPEN_STATUSES = ['queued', 'running'];
/** Output tokens per this many pixels of each frame‡ (usage is counted in tokens, §6.2). */
const PIXELS_PER_TOKEN = 1024;

export type ThetaRoute = 'create' | 'get' | 'list' | 'cancel';

interface ThetaCall {
  call: SimulatedCall;
  state: SimulatorState;
  owner: string;
  directives: Directives;
  requestId: string;
}

/**
 * theta video tasks under `{base}/api/v3/contents/generations/tasks` (upstreams.md §6.2): the key
 * first, then scripted failures, then the call. A creation carrying `error_after=` (with `error=`) is
 * accepted and its task fails later, so `error_after=` is never played on a call itself.
 */
export function etaThetaHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
  route: ThetaRoute,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(`eta:videoTasks:${route}`);
    const requestId = newEtaRequestId();
    const directives = await runPreamble(call, {
      credentialFailure: (current) => etaCredentialFailure(current, settings.etaKeys, requestId),
      scriptedError: (scripted) => etaScriptedError(scripted, requestId),
      handlesItself: (_scripted, scriptedDirectives) => scriptedDirectives.errorAfter !== undefined,
    });
    if (!directives) return;
    const thetaCall: ThetaCall = {
      call,
      state,
      owner: bearerKeyOf(call.request.headers) ?? '',
      directives,
      requestId,
    };
    if (route === 'create') return create(thetaCall);
    if (route === 'list') return list(thetaCall);
    const id = (call.request.params as { id: string }).id;
    const task = state.etaThetaTasks.find(thetaCall.owner, id);
    if (!task) return sendWireError(call.response, etaNotFound(`task ${id}`, requestId));
    if (route === 'get') return answerTask(thetaCall, task);
    cancel(thetaCall, task);
  };
}

/** POST: validates, then stores the task with the plan its directives script. */
function create({ call, state, owner, directives, requestId }: ThetaCall): void {
  const body = parseJsonObject(call.rawBody);
  if (!body) return sendWireError(call.response, etaInvalidJson(requestId));
  const parsed = isTheta2Model(body['model'])
    ? toTheta2Job(body, requestId, state.etaAssets)
    : toThetaJob(body, requestId);
  if ('error' in parsed) return sendWireError(call.response, parsed.error);
  if (directives.block === 'prompt') {
    return sendWireError(
      call.response,
      etaSensitiveContent(directives.code ?? ETA_INPUT_TEXT_SENSITIVE, requestId),
    );
  }
  const task = state.etaThetaTasks.create(
    owner,
    scriptedTaskPlanOf(directives, URL_LIFETIME_SECONDS),
    parsed.job,
  );
  sendJson(call.response, 200, { id: task.id }, headersOf(requestId));
}

/**
 * GET: moves the task on by one answer (`queued` for the first, `running` after) until its script
 * ends it: `succeeded` with the video (and the last frame when asked), `failed` with the scripted
 * class's `error`, or the word `finish=` names (`expired`, `cancelled`, or one outside the table).
 */
function answerTask({ call, state, requestId }: ThetaCall, task: ThetaTask): void {
  const { fields } = task;
  if (!fields.cancelled) {
    const step = state.etaThetaTasks.advance(task);
    const before = fields.status;
    if (step.state === 'pending') fields.status = step.answered === 0 ? 'queued' : 'running';
    else if (step.state === 'failed') {
      fields.status = 'failed';
      fields.error ??= taskErrorOf(step.scripted, requestId);
    } else if (step.finish === undefined || step.finish === 'succeeded') {
      fields.status = 'succeeded';
      publishResults(call, state, task);
    } else {
      fields.status = step.finish;
      if (step.finish === 'failed')
        fields.error ??= taskErrorOf({ errorClass: 'overload', hangMs: 0 }, requestId);
    }
    if (fields.status !== before) fields.updatedAtMs = Date.now();
  }
  sendJson(call.response, 200, taskView(task), headersOf(requestId));
}

/** GET of the collection (§6.2): `{items, total}`. */
function list({ call, state, owner, requestId }: ThetaCall): void {
  const query = call.request.query as Record<string, string | string[] | undefined>;
  const listed = thetaTaskList(query, state.etaThetaTasks.list(owner), taskView, requestId);
  if ('error' in listed) return sendWireError(call.response, listed.error);
  sendJson(call.response, 200, listed.body, headersOf(requestId));
}

/** DELETE (§6.2): cancels a queued task, deletes the record of a finished one; a running task is refused. */
function cancel({ call, requestId }: ThetaCall, task: ThetaTask): void {
  const { fields } = task;
  if (fields.status === 'running') {
    const refusal = etaInvalidParameter(
      'id',
      'only a queued task can be cancelled; this one is running.',
      requestId,
    );
    return sendWireError(call.response, refusal);
  }
  if (fields.status === 'queued' && !fields.cancelled) {
    fields.cancelled = true;
    fields.status = 'cancelled';
    fields.updatedAtMs = Date.now();
  } else {
    fields.deleted = true;
  }
  sendJson(call.response, 200, {}, headersOf(requestId));
}

function publishResults(call: SimulatedCall, state: SimulatorState, task: ThetaTask): void {
  const { fields, plan } = task;
  if (!fields.videoUrl) {
    const name = state.files.publishContent(
      simulatedMp4(),
      { prefix: 'video', extension: 'mp4' },
      plan.urlLifetimeSeconds,
    );
    fields.videoUrl = resultFileUrl(call.request, name, plan.resultHost);
  }
  if (fields.job.returnLastFrame && !fields.lastFrameUrl) {
    const { width, height } = thetaFrameSize(fields.job.resolution, fields.job.ratio);
    fields.lastFrameUrl = publishResultFile(
      call.request,
      state.files,
      solidImage('png', width, height),
      plan.urlLifetimeSeconds,
    );
  }
}

/** A failed task's `error`: the scripted class's code (§6.1), an output moderation verdict by default. */
function taskErrorOf(scripted: ScriptedError, requestId: string): { code: string; message: string } {
  const code =
    scripted.errorClass === 'content_policy' && scripted.code === undefined
      ? ETA_OUTPUT_VIDEO_SENSITIVE
      : scripted.code;
  const { error } = etaScriptedError({ ...scripted, code }, requestId).body as {
    error: { code: string; message: string };
  };
  return { code: error.code, message: error.message };
}

/** The query answer of §6.2 for the task as it stands. */
export function taskView(task: ThetaTask): Record<string, unknown> {
  const { job, status, error, videoUrl, lastFrameUrl } = task.fields;
  const view: Record<string, unknown> = { id: task.id, model: job.model, status };
  if (status === 'succeeded') {
    view['content'] = { video_url: videoUrl, ...(lastFrameUrl ? { last_frame_url: lastFrameUrl } : {}) };
    const { width, height } = thetaFrameSize(job.resolution, job.ratio);
    const tokens = Math.round((width * height * THETA_FRAMES_PER_SECOND * job.duration) / PIXELS_PER_TOKEN);
    view['usage'] = { completion_tokens: tokens, total_tokens: tokens };
  }
  if (error && !OPEN_STATUSES.includes(status)) view['error'] = error;
  return {
    ...view,
    created_at: Math.floor(task.createdAtMs / 1000),
    updated_at: Math.floor(task.fields.updatedAtMs / 1000),
    seed: job.seed,
    resolution: job.resolution,
    ratio: job.ratio,
    duration: job.duration,
    framespersecond: THETA_FRAMES_PER_SECOND,
    service_tier: job.serviceTier,
    execution_expires_after: job.executionExpiresAfter,
    ...(job.generateAudio === undefined ? {} : { generate_audio: job.generateAudio }),
    ...(job.draft === undefined ? {} : { draft: job.draft }),
  };
}

function headersOf(requestId: string): Record<string, string> {
  return { 'x-request-id': requestId };
}
