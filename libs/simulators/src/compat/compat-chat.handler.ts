import { parseJsonObject } from '../json-body.util';
import { sendJson, sendWireError } from '../raw-response.util';
import { DEFAULT_HANG_MS, scriptedErrorOf } from '../scripted-error';
import { runPreamble } from '../simulated-preamble';
import { SimulatedHandler } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { compatCredentialFailure } from './compat-auth';
import { compatInvalidJson, compatModelNotFound, compatScriptedError } from './compat-errors';
import { toCompatChatView } from './compat-request';
import { planCompatReply } from './compat-reply';
import { newCompatResponseMeta, newToolCallIds, toCompatCompletion } from './compat-response.builder';
import { streamCompatReply } from './compat-stream.playback';
import { openCompatStream } from './compat-stream.writer';

const DEFAULT_CHUNKS = 3;
/** Relays answer unknown models with 404; ids with this prefix play that part. */
const UNKNOWN_MODEL_PREFIX = 'unknown-';

/** `POST /v1/chat/completions` (upstreams.md §2.2). */
export function compatChatHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:chatCompletions');
    const body = parseJsonObject(call.rawBody);
    const streaming = body?.['stream'] === true;
    const directives = await runPreamble(call, {
      credentialFailure: (current) => compatCredentialFailure(current, settings.compatKeys),
      scriptedError: compatScriptedError,
      handlesItself: (_scripted, scriptedDirectives) =>
        streaming && scriptedDirectives.errorAfter !== undefined,
    });
    if (!directives) return;
    if (!body) return sendWireError(call.response, compatInvalidJson());
    const parsed = toCompatChatView(body);
    if ('error' in parsed) return sendWireError(call.response, parsed.error);
    const view = parsed.view;
    if (view.model.startsWith(UNKNOWN_MODEL_PREFIX))
      return sendWireError(call.response, compatModelNotFound(view.model));
    if (directives.block === 'prompt') {
      return sendWireError(
        call.response,
        compatScriptedError({ errorClass: 'content_policy', hangMs: DEFAULT_HANG_MS }),
      );
    }

    const errorAfter = streaming ? directives.errorAfter : undefined;
    const baseChunks = directives.chunks ?? DEFAULT_CHUNKS;
    const chunkCount = errorAfter === undefined ? baseChunks : Math.max(baseChunks, errorAfter + 1);
    const reply = planCompatReply({ view, directives, chunkCount });
    const meta = newCompatResponseMeta(view.model);
    const toolCallIds = newToolCallIds(view.choiceCount);
    if (!streaming) return sendJson(call.response, 200, toCompatCompletion(reply, meta, toolCallIds));

    const scripted = scriptedErrorOf(directives);
    await streamCompatReply({
      call,
      writer: openCompatStream(call.response),
      reply,
      meta,
      toolCallIds,
      includeUsage: view.includeUsage,
      intervalMs: directives.intervalMs ?? 0,
      ending:
        scripted && errorAfter !== undefined
          ? { kind: 'error', after: errorAfter, scripted }
          : { kind: 'complete' },
    });
  };
}
