import { Directives } from '../directives';
import { solidImage } from '../image-bytes.util';
import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { publishResultFile } from '../result-file-url.util';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { pause } from '../timing.util';
import { etaCredentialFailure } from './eta-auth';
import {
  ETA_INPUT_TEXT_SENSITIVE,
  ETA_OUTPUT_IMAGE_SENSITIVE,
  etaInvalidJson,
  etaScriptedError,
  etaSensitiveContent,
} from './eta-errors';
import { IOTA_MAX_IMAGES_PER_REQUEST, IotaJob, toIotaJob } from './eta-iota-request';
import { IotaItem, toIotaResponse, toIotaStreamEvents } from './eta-iota-response.builder';
import { newEtaRequestId } from './eta-request-id.util';

const URL_LIFETIME_SECONDS = 24 * 3600;

/** `POST {base}/api/v3/images/generations` (upstreams.md §6.3). */
export function etaIotaImagesHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('eta:imageGenerations');
    const requestId = newEtaRequestId();
    const directives = await runPreamble(call, {
      credentialFailure: (current) => etaCredentialFailure(current, settings.etaKeys, requestId),
      scriptedError: (scripted) => etaScriptedError(scripted, requestId),
    });
    if (!directives) return;
    const body = parseJsonObject(call.rawBody);
    if (!body) return sendWireError(call.response, etaInvalidJson(requestId));
    const parsed = toIotaJob(body, requestId);
    if ('error' in parsed) return sendWireError(call.response, parsed.error);
    const { job } = parsed;
    if (directives.block === 'prompt') {
      return sendWireError(call.response, etaSensitiveContent(ETA_INPUT_TEXT_SENSITIVE, requestId));
    }
    const items = iotaItemsOf(call, state, job, directives);
    if (items.every((item) => 'error' in item)) {
      return sendWireError(call.response, etaSensitiveContent(ETA_OUTPUT_IMAGE_SENSITIVE, requestId));
    }
    const created = Math.floor(Date.now() / 1000);
    const headers = { 'x-request-id': requestId };
    if (!job.stream)
      return sendJson(call.response, 200, toIotaResponse(job, created, items, directives), headers);
    await streamIotaEvents(call, toIotaStreamEvents(job, created, items, directives), directives, headers);
  };
}

/**
 * One image outside group mode; in group mode as many as `images=` or `max_images` ask (default 1),
 * within the 15 that references and outputs share. `block=output` fails the last item of a group
 * with a per-item error, and a lone image entirely.
 */
function iotaItemsOf(
  call: SimulatedCall,
  state: SimulatorState,
  job: IotaJob,
  directives: Directives,
): IotaItem[] {
  const room = IOTA_MAX_IMAGES_PER_REQUEST - job.referenceCount;
  const count = job.group ? Math.max(1, Math.min(directives.images ?? job.maxImages ?? 1, room)) : 1;
  const image = solidImage('jpeg', job.width, job.height);
  const size = `${job.width}x${job.height}`;
  const lifetimeSeconds = directives.urlTtlSeconds ?? URL_LIFETIME_SECONDS;
  const items: IotaItem[] = [];
  for (let index = 0; index < count; index += 1) {
    if (directives.block === 'output' && index === count - 1) {
      items.push({
        error: {
          code: ETA_OUTPUT_IMAGE_SENSITIVE,
          message: 'The output image may contain sensitive information.',
        },
      });
    } else if (job.responseFormat === 'url') {
      items.push({ url: publishResultFile(call.request, state.files, image, lifetimeSeconds), size });
    } else {
      items.push({ b64_json: image.base64, size });
    }
  }
  return items;
}

/** SSE, `intervalMs` apart: one event per item, the completion event with usage, then `[DONE]`. */
async function streamIotaEvents(
  call: SimulatedCall,
  events: Array<Record<string, unknown>>,
  directives: Directives,
  headers: Record<string, string>,
): Promise<void> {
  call.response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...headers,
  });
  for (const [index, event] of events.entries()) {
    if (index > 0 && !(await pause(directives.intervalMs ?? 0, call.exchange.signal))) return;
    call.response.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
  }
  call.response.end('data: [DONE]\n\n');
}
