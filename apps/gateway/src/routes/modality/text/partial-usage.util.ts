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

/**
 * Usage as billing counts it: whole tokens (a fractional count is rounded up) and at most 2^53 − 1 of
 * each. An upstream may report any non-negative JSON number; a count beyond that bound already costs far
 * more than any account can pay, and the settlement captures only what the account can pay.
 */
export function toBillableUsage(usage: TokenUsage): TokenUsage {
  const inputTokens = toBillableCount(usage.inputTokens);
  const outputTokens = toBillableCount(usage.outputTokens);
  if (inputTokens === usage.inputTokens && outputTokens === usage.outputTokens) return usage;
  return { ...usage, inputTokens, outputTokens };
}

function toBillableCount(tokens: number): number {
  if (!(tokens > 0)) return 0;
  return tokens >= Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : Math.ceil(tokens);
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
