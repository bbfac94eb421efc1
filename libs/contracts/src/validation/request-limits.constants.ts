/**
 * Per-field limits of the text generation requests, both dialects (README, "Request limits"). They
 * bound the gateway's own work per request (validation, translation, logging) and sit above what the
 * upstreams accept, which refuse finer. Free text and inline data are bounded by the body size only.
 */
export const TEXT_REQUEST_LIMITS = Object.freeze({
  /** `contents`, `messages`. */
  conversationItems: 10_000,
  /** `parts` of a content item, content parts of a message. */
  partsPerItem: 10_000,
  /** `tools` (both dialects). */
  tools: 128,
  /** `functionDeclarations` of one native tool, `tool_calls` of one message, allowed function names. */
  functionsPerList: 512,
  /** `stopSequences`, `stop`. */
  stopSequences: 16,
  /** `safetySettings`. */
  safetySettings: 32,
  /** `responseModalities`. */
  responseModalities: 8,
  /** Model names, function names, call ids, MIME types, resource names, end-user ids. */
  identifierLength: 256,
  /** `fileUri`, and image URLs that are not `data:` URLs. */
  urlLength: 8_192,
});
