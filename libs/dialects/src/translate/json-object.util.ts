import { parseJsonObject } from '@gateway/providers-core';

/**
 * The OpenAI-style wire carries a tool call's arguments as the JSON text the model wrote; the
 * native wire wants an object. Empty text means a call without arguments; anything that is not a
 * JSON object is malformed (undefined).
 */
export function parseToolCallArguments(argumentsText: string): Record<string, unknown> | undefined {
  return argumentsText.trim() === '' ? {} : parseJsonObject(argumentsText);
}
