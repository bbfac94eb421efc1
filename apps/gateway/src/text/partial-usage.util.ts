import type { TokenUsage, TextDialect } from '@gateway/providers-core';

/**
 * The billing rule for a stream that ended early (client disconnect or upstream failure mid-stream):
 * the last usage the upstream reported is authoritative (native streams report cumulative usage on
 * every chunk). When the upstream reported none yet, the request is billed for what was actually
 * delivered: output tokens estimated at 4 characters of delivered text per token, input tokens at 4
 * bytes of request body per token.
 */
export function usageForEndedStream(
  lastReported: TokenUsage | undefined,
  promptBytes: number,
  deliveredTextChars: number,
): TokenUsage {
  if (lastReported) return lastReported;
  return { inputTokens: Math.ceil(promptBytes / 4), outputTokens: Math.ceil(deliveredTextChars / 4) };
}

/** Characters of answer text in one upstream chunk, in the channel's dialect. */
export function textCharsInChunk(chunk: Record<string, unknown>, dialect: TextDialect): number {
  let chars = 0;
  if (dialect === 'native') {
    const candidates = chunk['candidates'];
    if (!Array.isArray(candidates)) return 0;
    for (const candidate of candidates) {
      const parts = (candidate as { content?: { parts?: unknown } }).content?.parts;
      if (!Array.isArray(parts)) continue;
      for (const part of parts) {
        const text = (part as { text?: unknown }).text;
        if (typeof text === 'string') chars += text.length;
      }
    }
    return chars;
  }
  const choices = chunk['choices'];
  if (!Array.isArray(choices)) return 0;
  for (const choice of choices) {
    const content = (choice as { delta?: { content?: unknown } }).delta?.content;
    if (typeof content === 'string') chars += content.length;
  }
  return chars;
}
