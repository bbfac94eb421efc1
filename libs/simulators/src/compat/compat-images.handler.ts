import { Directives } from '../directives';
import { solidImage } from '../image-bytes.util';
import { parseJsonObject } from '../json-body.util';
import { readMultipartForm, summariseForm } from '../multipart-form.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { publishResultFile } from '../result-file-url.util';
import { DEFAULT_HANG_MS, WireError } from '../scripted-error';
import { WirePreamble, runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { compatCredentialFailure } from './compat-auth';
import {
  compatError,
  compatInvalidJson,
  compatModerationBlocked,
  compatScriptedError,
} from './compat-errors';
import { checkEditUploads, toEditBody } from './compat-image-edit.form';
import { compatImageRulesOf } from './compat-image-models';
import { CompatImageJob, toCompatImageJob } from './compat-image-request';
import { CompatImageItem, toCompatImageResponse } from './compat-image-response.builder';

/** `POST /v1/images/generations` (upstreams.md §2.3), JSON. */
export function compatImageGenerationsHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:imageGenerations');
    const body = parseJsonObject(call.rawBody);
    const directives = await runPreamble(call, imagePreamble(settings, modelOf(body)));
    if (!directives) return;
    if (!body) return sendWireError(call.response, compatInvalidJson());
    const parsed = toCompatImageJob(body, 'generation');
    if ('error' in parsed) return sendWireError(call.response, parsed.error);
    answerImageJob(call, state, parsed.job, directives);
  };
}

/**
 * `POST /v1/images/edits` (upstreams.md §2.3), multipart. The form is read before the preamble, so
 * that a `[[sim …]]` marker in any text part (the prompt, typically) scripts the call.
 */
export function compatImageEditsHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:imageEdits');
    const read = await readMultipartForm(call.request);
    const form = 'form' in read ? read.form : undefined;
    if (form) call.exchange.recordForm(summariseForm(form));
    const body = form ? toEditBody(form) : {};
    const textParts = form ? Object.values(form.fields).flat().join('\n') : '';
    const directives = await runPreamble(
      { ...call, rawBody: textParts },
      imagePreamble(settings, modelOf(body)),
    );
    if (!directives) return;
    if ('failure' in read) {
      const { status, message } = read.failure;
      return sendWireError(call.response, compatError(status, message, 'invalid_request_error', null));
    }
    const parsed = toCompatImageJob(body, 'edit');
    if ('error' in parsed) return sendWireError(call.response, parsed.error);
    const inputImageCount = checkEditUploads(parsed.job.rules, read.form.files);
    if (typeof inputImageCount !== 'number') return sendWireError(call.response, inputImageCount);
    answerImageJob(call, state, { ...parsed.job, inputImageCount }, directives);
  };
}

function imagePreamble(settings: SimulatorSettings, model: string): WirePreamble {
  return {
    credentialFailure: (call) => compatCredentialFailure(call, settings.compatKeys),
    scriptedError: (scripted) =>
      scripted.errorClass === 'content_policy' ? contentPolicyErrorOf(model) : compatScriptedError(scripted),
  };
}

/** `block=prompt` and `block=output` both end in the family's 400: the API returns no partial result. */
function answerImageJob(
  call: SimulatedCall,
  state: SimulatorState,
  job: CompatImageJob,
  directives: Directives,
): void {
  if (directives.block) return sendWireError(call.response, contentPolicyErrorOf(job.model));
  const image = solidImage(job.outputFormat, job.width, job.height);
  const lifetimeSeconds = directives.urlTtlSeconds ?? job.rules.urlLifetimeSeconds;
  const items: CompatImageItem[] = [];
  for (let index = 0; index < job.count; index += 1) {
    items.push(
      job.responseFormat === 'url'
        ? { url: publishResultFile(call.request, state.files, image, lifetimeSeconds) }
        : { b64_json: image.base64 },
    );
  }
  sendJson(call.response, 200, toCompatImageResponse(job, items, directives));
}

function contentPolicyErrorOf(model: string): WireError {
  const family = compatImageRulesOf(model)?.family;
  return family === 'img-1' || family === 'img-2'
    ? compatModerationBlocked()
    : compatScriptedError({ errorClass: 'content_policy', hangMs: DEFAULT_HANG_MS });
}

function modelOf(body: Record<string, unknown> | undefined): string {
  const model = body?.['model'];
  return typeof model === 'string' ? model : '';
}
