import { Directives } from '../directives';
import { parseJsonObject } from '../json-body.util';
import { randomAlphanumeric } from '../random-id.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { ScriptedError, scriptedErrorOf } from '../scripted-error';
import { runPreamble } from '../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../simulated-route';
import { kappaInvalidArgument, kappaModelNotFound, kappaNotFound } from './kappa-errors';
import { invalidImageConfigReason } from './kappa-image';
import { isKappaImageModel, isKnownKappaModel } from './kappa-models';
import { planKappaReply, promptOnlyUsage } from './kappa-reply';
import {
  KappaResponseMeta,
  toKappaOutputBlocked,
  toKappaPromptBlocked,
  toKappaResponse,
  toKappaStreamChunks,
} from './kappa-response.builder';
import {
  KappaRequestView,
  imageConfigOf,
  invalidKappaRequestReason,
  toKappaRequestView,
} from './kappa-request';
import { KappaRouteContext, kappaPreamble } from './kappa-route-context';
import { KappaStreamWriter, openKappaArrayStream, openKappaSseStream } from './kappa-stream.writer';
import { KappaStreamEnding, streamKappaChunks } from './kappa-stream.playback';

const GENERATE = 'generateContent';
const STREAM = 'streamGenerateContent';
const DEFAULT_CHUNKS = 3;

/** `POST /{version}/models/{model}:{method}` for `generateContent` and `streamGenerateContent`. */
export function kappaModelActionHandler(context: KappaRouteContext): SimulatedHandler {
  return async (call) => {
    const { model, method } = splitModelAction((call.request.params as { modelAction: string }).modelAction);
    context.state.stats.countRoute(`kappa:${method || 'unknown'}`);
    const streaming = method === STREAM;
    const directives = await runPreamble(
      call,
      kappaPreamble(
        context,
        (scripted, scriptedDirectives) =>
          scripted.errorClass === 'content_policy' ||
          (streaming && scriptedDirectives.errorAfter !== undefined),
      ),
    );
    if (!directives) return;
    if (method !== GENERATE && method !== STREAM) {
      return sendWireError(call.response, kappaNotFound(`Method not found: ${method}.`));
    }
    if (!isKnownKappaModel(model)) {
      return sendWireError(call.response, kappaModelNotFound(model, context.apiVersion, method));
    }
    const body = parseJsonObject(call.rawBody);
    if (!body) return sendWireError(call.response, kappaInvalidArgument('Invalid JSON payload received.'));
    const view = toKappaRequestView(body);
    const invalidReason =
      invalidKappaRequestReason(view) ??
      (isKappaImageModel(model) ? invalidImageConfigReason(model, imageConfigOf(view)) : undefined);
    if (invalidReason) return sendWireError(call.response, kappaInvalidArgument(invalidReason));
    const generation: Generation = {
      call,
      view,
      model,
      directives,
      scripted: scriptedErrorOf(directives),
      meta: { modelVersion: model, responseId: randomAlphanumeric(22) },
    };
    if (streaming) await streamGeneration(generation, call.request.query as Record<string, unknown>);
    else answerGeneration(generation);
  };
}

interface Generation {
  call: SimulatedCall;
  view: KappaRequestView;
  model: string;
  directives: Directives;
  scripted: ScriptedError | undefined;
  meta: KappaResponseMeta;
}

function answerGeneration({ call, view, model, directives, scripted, meta }: Generation): void {
  const block = directives.block ?? (scripted?.errorClass === 'content_policy' ? 'prompt' : undefined);
  const usage = promptOnlyUsage(view, directives);
  if (block === 'prompt') return sendJson(call.response, 200, toKappaPromptBlocked(usage, meta, 'SAFETY'));
  if (block === 'output') {
    return sendJson(call.response, 200, toKappaOutputBlocked(usage, meta, directives.finish ?? 'SAFETY'));
  }
  const chunkCount = directives.chunks ?? DEFAULT_CHUNKS;
  sendJson(
    call.response,
    200,
    toKappaResponse(planKappaReply({ view, model, directives, chunkCount }), meta),
  );
}

async function streamGeneration(generation: Generation, query: Record<string, unknown>): Promise<void> {
  const { call, view, model, directives, scripted, meta } = generation;
  const writer: KappaStreamWriter =
    query['alt'] === 'sse' ? openKappaSseStream(call.response) : openKappaArrayStream(call.response);
  const usage = promptOnlyUsage(view, directives);
  const errorAfter = directives.errorAfter;
  const contentPolicy = scripted?.errorClass === 'content_policy';
  const block =
    directives.block ?? (contentPolicy ? (errorAfter === undefined ? 'prompt' : 'output') : undefined);
  if (block === 'prompt') {
    writer.writeChunk(toKappaPromptBlocked(usage, meta, 'SAFETY'));
    return writer.end();
  }
  const baseChunks = directives.chunks ?? DEFAULT_CHUNKS;
  const chunkCount = errorAfter === undefined ? baseChunks : Math.max(baseChunks, errorAfter + 1);
  const chunks = toKappaStreamChunks(planKappaReply({ view, model, directives, chunkCount }), meta);
  const outputBlock = toKappaOutputBlocked(usage, meta, directives.finish ?? 'SAFETY');
  await streamKappaChunks({
    call,
    writer,
    chunks,
    intervalMs: directives.intervalMs ?? 0,
    ending: streamEndingOf(block === 'output' ? outputBlock : undefined, errorAfter, scripted),
  });
}

function streamEndingOf(
  outputBlock: unknown,
  errorAfter: number | undefined,
  scripted: ScriptedError | undefined,
): KappaStreamEnding {
  if (outputBlock !== undefined) return { kind: 'block', after: errorAfter ?? 0, chunk: outputBlock };
  if (scripted && errorAfter !== undefined) return { kind: 'error', after: errorAfter, scripted };
  return { kind: 'complete' };
}

/** `kappa-2.0-flash:generateContent` → model and method (the method follows the last colon). */
function splitModelAction(modelAction: string): { model: string; method: string } {
  const colon = modelAction.lastIndexOf(':');
  return colon < 0
    ? { model: modelAction, method: '' }
    : { model: modelAction.slice(0, colon), method: modelAction.slice(colon + 1) };
}
