import { toNativeFinishReason } from '../finish-reason.map';
import { toNativeLogprobsResult } from '../logprobs/logprobs.convert';
import type { NativePart } from '../native/native-request.types';
import type { NativeCandidate, NativeGenerateResponse } from '../native/native-response.types';
import type {
  OpenAiChatChunk,
  OpenAiChunkChoice,
  OpenAiFinishReason,
  OpenAiUsage,
} from '../openai/openai-chat.types';
import { nativeUsageFromTokenUsage, tokenUsageFromOpenAi } from '../usage/usage.convert';
import { parseToolCallArguments } from './json-object.util';

export interface OpenAiChatToNativeStreamOptions {
  /** Model id the native client sees in `modelVersion`. */
  modelVersion: string;
}

export interface OpenAiChatToNativeStreamTranslator {
  /** Native chunks to send now for one upstream chunk (possibly none). */
  push(chunk: OpenAiChatChunk): NativeGenerateResponse[];
  /** Native chunks still owed when the upstream stream has ended; later calls return none. */
  finish(): NativeGenerateResponse[];
}

interface PendingToolCall {
  name: string;
  argumentsText: string;
}

interface ChoiceState {
  /** Tool calls being assembled, by their stream index. */
  toolCalls: Map<number, PendingToolCall>;
  finished: boolean;
}

/**
 * OpenAI-style chat stream → native stream. Text is passed on at once, chunk by chunk. A tool
 * call's arguments arrive in pieces and are parsed only when the choice finishes (or the stream
 * ends), then sent as one functionCall part. The candidate's final chunk (finishReason, completed
 * calls) is held until the usage chunk or the end of the stream, so that it can carry the
 * usageMetadata: native usage is cumulative and read from the last chunk.
 */
export function createOpenAiChatToNativeStreamTranslator(
  options: OpenAiChatToNativeStreamOptions,
): OpenAiChatToNativeStreamTranslator {
  const choices = new Map<number, ChoiceState>();
  let heldFinalCandidates: NativeCandidate[] = [];
  let responseId: string | undefined;
  let latestUsage: OpenAiUsage | undefined;
  let usageSent = false;
  let ended = false;

  const nativeChunk = (
    candidates: NativeCandidate[] | undefined,
    withUsage: boolean,
  ): NativeGenerateResponse => {
    const chunk: NativeGenerateResponse = {};
    if (candidates) chunk.candidates = candidates;
    if (withUsage && latestUsage) {
      chunk.usageMetadata = nativeUsageFromTokenUsage(tokenUsageFromOpenAi(latestUsage));
      usageSent = true;
    }
    chunk.modelVersion = options.modelVersion;
    if (responseId !== undefined) chunk.responseId = responseId;
    return chunk;
  };

  const releaseFinalChunk = (): NativeGenerateResponse[] => {
    if (heldFinalCandidates.length === 0 && (usageSent || !latestUsage)) return [];
    const candidates = heldFinalCandidates.length > 0 ? heldFinalCandidates : undefined;
    heldFinalCandidates = [];
    return [nativeChunk(candidates, true)];
  };

  const stateOf = (index: number): ChoiceState => {
    let state = choices.get(index);
    if (!state) {
      state = { toolCalls: new Map(), finished: false };
      choices.set(index, state);
    }
    return state;
  };

  const pushChoice = (choice: OpenAiChunkChoice): NativeGenerateResponse[] => {
    const state = stateOf(choice.index);
    if (state.finished) return [];
    accumulateToolCalls(state, choice);
    const emitted: NativeGenerateResponse[] = [];
    const text = (choice.delta.content ?? '') + (choice.delta.refusal ?? '');
    if (text !== '') {
      const candidate: NativeCandidate = {
        content: { role: 'model', parts: [{ text }] },
        index: choice.index,
      };
      if (choice.logprobs?.content) candidate.logprobsResult = toNativeLogprobsResult(choice.logprobs);
      emitted.push(nativeChunk([candidate], false));
    }
    if (choice.finish_reason) {
      state.finished = true;
      heldFinalCandidates.push(finalCandidate(choice.index, state, choice.finish_reason));
    }
    return emitted;
  };

  return {
    push(chunk) {
      if (ended) return [];
      responseId = chunk.id ?? responseId;
      if (chunk.usage) latestUsage = chunk.usage;
      const emitted = (chunk.choices ?? []).flatMap(pushChoice);
      const isUsageChunk = (chunk.choices ?? []).length === 0 && chunk.usage;
      return isUsageChunk ? [...emitted, ...releaseFinalChunk()] : emitted;
    },
    finish() {
      if (ended) return [];
      ended = true;
      for (const [index, state] of choices) {
        if (!state.finished && state.toolCalls.size > 0)
          heldFinalCandidates.push(finalCandidate(index, state, null));
      }
      return releaseFinalChunk();
    },
  };
}

/** Tool call pieces are keyed by their index: the first piece names the call, later ones extend the arguments. */
function accumulateToolCalls(state: ChoiceState, choice: OpenAiChunkChoice): void {
  for (const piece of choice.delta.tool_calls ?? []) {
    const pending = state.toolCalls.get(piece.index) ?? { name: '', argumentsText: '' };
    pending.name += piece.function?.name ?? '';
    pending.argumentsText += piece.function?.arguments ?? '';
    state.toolCalls.set(piece.index, pending);
  }
}

/** The completed tool calls, and the finish reason (MALFORMED_FUNCTION_CALL when arguments are not a JSON object). */
function finalCandidate(
  index: number,
  state: ChoiceState,
  finishReason: OpenAiFinishReason | null,
): NativeCandidate {
  const parts: NativePart[] = [];
  let malformedCall = false;
  const byStreamIndex = [...state.toolCalls.entries()].sort(([left], [right]) => left - right);
  for (const [, toolCall] of byStreamIndex) {
    const args = parseToolCallArguments(toolCall.argumentsText);
    if (args) parts.push({ functionCall: { name: toolCall.name, args } });
    else malformedCall = true;
  }
  state.toolCalls.clear();
  const candidate: NativeCandidate = { content: { role: 'model', parts } };
  const nativeReason = malformedCall ? 'MALFORMED_FUNCTION_CALL' : toNativeFinishReason(finishReason);
  if (nativeReason) candidate.finishReason = nativeReason;
  candidate.index = index;
  return candidate;
}
