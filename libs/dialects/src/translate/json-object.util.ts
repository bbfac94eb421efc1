/** The JSON object a text holds, or undefined when it holds anything else (or is not JSON). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The OpenAI-style wire carries a tool call's arguments as the JSON text the model wrote; the
 * native wire wants an object. Empty text means a call without arguments; anything that is not a
 * JSON object is malformed (undefined).
 */
export function parseToolCallArguments(argumentsText: string): Record<string, unknown> | undefined {
  return argumentsText.trim() === '' ? {} : parseJsonObject(argumentsText);
}
