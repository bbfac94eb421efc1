import { randomAlphanumeric } from '../random-id.util';
import { CompatReply, CompatUsage } from './compat-reply';

/** Fields shared by a completion and all chunks of its stream. */
export interface CompatResponseMeta {
  id: string;
  created: number;
  model: string;
}

type JsonObject = Record<string, unknown>;

const SYSTEM_FINGERPRINT = 'fp_sim0001';

export function newCompatResponseMeta(model: string): CompatResponseMeta {
  return { id: `chatcmpl-${randomAlphanumeric(29)}`, created: Math.floor(Date.now() / 1000), model };
}

/** One tool-call id per choice, shared by the completion or by all chunks of the stream. */
export function newToolCallIds(choiceCount: number): string[] {
  return Array.from({ length: choiceCount }, () => `call_${randomAlphanumeric(24)}`);
}

/** The non-stream `chat.completion` body (upstreams.md §2.2). */
export function toCompatCompletion(
  reply: CompatReply,
  meta: CompatResponseMeta,
  toolCallIds: string[],
): JsonObject {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: toolCallIds.map((toolCallId, index) => ({
      index,
      message: messageOf(reply, toolCallId),
      logprobs: null,
      finish_reason: reply.finishReason,
    })),
    usage: usageOf(reply.usage),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** The first delta of a choice: the role, plus the tool call's id and name when it calls one. */
export function toCompatOpeningChunk(
  reply: CompatReply,
  meta: CompatResponseMeta,
  index: number,
  toolCallId: string,
): JsonObject {
  const delta = reply.toolCall
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            index: 0,
            id: toolCallId,
            type: 'function',
            function: { name: reply.toolCall.name, arguments: '' },
          },
        ],
        refusal: null,
      }
    : { role: 'assistant', content: '', refusal: null };
  return chunkOf(meta, index, delta, null);
}

export function toCompatContentChunk(meta: CompatResponseMeta, index: number, content: string): JsonObject {
  return chunkOf(meta, index, { content }, null);
}

export function toCompatArgumentsChunk(
  meta: CompatResponseMeta,
  index: number,
  argumentsPiece: string,
): JsonObject {
  return chunkOf(meta, index, { tool_calls: [{ index: 0, function: { arguments: argumentsPiece } }] }, null);
}

export function toCompatFinishChunk(
  meta: CompatResponseMeta,
  index: number,
  finishReason: string,
): JsonObject {
  return chunkOf(meta, index, {}, finishReason);
}

/** The closing usage chunk of `stream_options.include_usage`: empty choices, filled usage. */
export function toCompatUsageChunk(meta: CompatResponseMeta, usage: CompatUsage): JsonObject {
  return { ...chunkBase(meta), choices: [], usage: usageOf(usage) };
}

function chunkOf(
  meta: CompatResponseMeta,
  index: number,
  delta: JsonObject,
  finishReason: string | null,
): JsonObject {
  return {
    ...chunkBase(meta),
    choices: [{ index, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  };
}

function chunkBase(meta: CompatResponseMeta): JsonObject {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function messageOf(reply: CompatReply, toolCallId: string): JsonObject {
  if (reply.toolCall) {
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: toolCallId,
          type: 'function',
          function: { name: reply.toolCall.name, arguments: reply.toolCall.arguments },
        },
      ],
      refusal: null,
    };
  }
  return { role: 'assistant', content: reply.filtered ? null : reply.pieces.join(''), refusal: null };
}

function usageOf(usage: CompatUsage): JsonObject {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}
