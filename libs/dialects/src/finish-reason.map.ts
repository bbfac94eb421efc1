import type { NativeFinishReason } from './native/native-response.types';
import type { OpenAiFinishReason } from './openai/openai-chat.types';

/**
 * Native finish reasons that mean "the output was withheld by a content filter". Every other
 * reason except MAX_TOKENS ends normally from the OpenAI-style client's point of view.
 */
const CONTENT_FILTER_REASONS: ReadonlySet<string> = new Set<NativeFinishReason>([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Native → OpenAI-style. The native wire ends a function-calling turn with STOP; the OpenAI-style
 * wire says `tool_calls`, so the caller tells whether the candidate carries function calls.
 * Unknown reasons end as `stop`.
 */
export function toOpenAiFinishReason(
  reason: string | undefined,
  hasFunctionCalls: boolean,
): OpenAiFinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER_REASONS.has(reason)) return 'content_filter';
  return hasFunctionCalls ? 'tool_calls' : 'stop';
}

/**
 * OpenAI-style → native. `tool_calls` (and legacy `function_call`) end as STOP, as the native wire
 * does. A reason outside the documented set (some relays invent their own) becomes OTHER.
 */
export function toNativeFinishReason(
  reason: OpenAiFinishReason | null | undefined,
): NativeFinishReason | undefined {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case null:
    case undefined:
      return undefined;
    default:
      return 'OTHER';
  }
}
