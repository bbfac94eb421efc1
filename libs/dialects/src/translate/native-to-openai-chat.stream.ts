import { toOpenAiFinishReason } from '../finish-reason.map';
import { toOpenAiLogprobs } from '../logprobs/logprobs.convert';
import type {
  NativeCandidate,
  NativeGenerateResponse,
  NativeUsageMetadata,
} from '../native/native-response.types';
import type {
  OpenAiChatChunk,
  OpenAiChunkChoice,
  OpenAiChunkDelta,
  OpenAiToolCallDelta,
} from '../openai/openai-chat.types';
import { openAiUsageFromTokenUsage, tokenUsageFromNative } from '../usage/usage.convert';
import { toOpenAiMessagePieces, toOpenAiToolCall } from './native-to-openai-chat.parts';

export interface NativeToOpenAiChatStreamOptions {
  /** Model name the client asked for. */
  model: string;
  /** Response id minted by the gateway, repeated on every chunk. */
  id: string;
  /** Unix seconds. */
  created: number;
  /** The client's `stream_options.include_usage`: whether the final usage chunk is sent. */
  includeUsage: boolean;
}

export interface NativeToOpenAiChatStreamTranslator {
  /** OpenAI-style chunks to send now for one upstream chunk (possibly none). */
  push(chunk: NativeGenerateResponse): OpenAiChatChunk[];
  /** The finish chunks and the usage chunk, once the upstream stream has ended; later calls return none. */
  finish(): OpenAiChatChunk[];
}

interface CandidateState {
  toolCallCount: number;
  finishReason?: string;
}

/**
 * Native stream → OpenAI-style chat stream. Text and whole function calls pass on at once. The
 * native wire may repeat finishReason on chunks before the last one, so finish_reason is sent only
 * at the end, in one closing chunk per candidate; then the usage chunk (empty choices) from the
 * last cumulative usageMetadata, when the client asked for it.
 */
export function createNativeToOpenAiChatStreamTranslator(
  options: NativeToOpenAiChatStreamOptions,
): NativeToOpenAiChatStreamTranslator {
  const candidates = new Map<number, CandidateState>();
  let latestUsage: NativeUsageMetadata | undefined;
  let promptBlocked = false;
  let ended = false;

  const openAiChunk = (choices: OpenAiChunkChoice[]): OpenAiChatChunk => ({
    id: options.id,
    object: 'chat.completion.chunk',
    created: options.created,
    model: options.model,
    choices,
  });

  const pushCandidate = (candidate: NativeCandidate, index: number): OpenAiChatChunk[] => {
    const known = candidates.get(index);
    const state: CandidateState = known ?? { toolCallCount: 0 };
    candidates.set(index, state);
    if (candidate.finishReason) state.finishReason = candidate.finishReason;
    const { text, functionCalls } = toOpenAiMessagePieces(candidate.content?.parts ?? []);
    const delta: OpenAiChunkDelta = {};
    if (!known) delta.role = 'assistant';
    if (text !== '' || (!known && functionCalls.length === 0)) delta.content = text;
    if (functionCalls.length > 0) {
      delta.tool_calls = functionCalls.map((call): OpenAiToolCallDelta => {
        const toolIndex = state.toolCallCount++;
        return { index: toolIndex, ...toOpenAiToolCall(call, `call_${toolIndex}`) };
      });
    }
    const choice: OpenAiChunkChoice = { index, delta, finish_reason: null };
    if (candidate.logprobsResult) choice.logprobs = toOpenAiLogprobs(candidate.logprobsResult);
    const hasNews =
      known === undefined || text !== '' || functionCalls.length > 0 || choice.logprobs !== undefined;
    return hasNews ? [openAiChunk([choice])] : [];
  };

  const closingChunks = (): OpenAiChatChunk[] => {
    if (candidates.size === 0) {
      const finishReason = promptBlocked ? 'content_filter' : 'stop';
      return [
        openAiChunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: finishReason }]),
      ];
    }
    return [...candidates.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, state]) =>
        openAiChunk([
          {
            index,
            delta: {},
            finish_reason: toOpenAiFinishReason(state.finishReason, state.toolCallCount > 0),
          },
        ]),
      );
  };

  return {
    push(chunk) {
      if (ended) return [];
      if (chunk.usageMetadata) latestUsage = chunk.usageMetadata;
      if (chunk.promptFeedback?.blockReason) promptBlocked = true;
      return (chunk.candidates ?? []).flatMap((candidate, position) =>
        pushCandidate(candidate, candidate.index ?? position),
      );
    },
    finish() {
      if (ended) return [];
      ended = true;
      const chunks = closingChunks();
      if (options.includeUsage && latestUsage) {
        chunks.push({
          ...openAiChunk([]),
          usage: openAiUsageFromTokenUsage(tokenUsageFromNative(latestUsage)),
        });
      }
      return chunks;
    },
  };
}
