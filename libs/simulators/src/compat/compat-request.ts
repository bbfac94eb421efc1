import { WireError } from '../scripted-error';
import { isRecord, sampleArgumentsFor } from '../sample-arguments.util';
import { tokensForCharacters } from '../tokens.util';
import { compatInvalidValue, compatMissingParameter } from './compat-errors';

/** The fields of a chat completion request the simulator acts on (upstreams.md §2.2). */
export interface CompatChatView {
  model: string;
  messages: unknown[];
  stream: boolean;
  includeUsage: boolean;
  /** Number of choices. */
  choiceCount: number;
  maxTokens?: number;
  tools: CompatFunctionTool[];
  toolChoice: unknown;
}

export interface CompatFunctionTool {
  name: string;
  parameters: unknown;
}

export interface CompatToolCall {
  name: string;
  /** JSON text, as the wire carries it. */
  arguments: string;
}

/** Fixed cost of one `image_url` part (project convention). */
export const IMAGE_PART_TOKENS = 85;
const MAX_CHOICES = 128;

export type CompatChatViewResult = { view: CompatChatView } | { error: WireError };

export function toCompatChatView(body: Record<string, unknown>): CompatChatViewResult {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') return { error: compatMissingParameter('model') };
  const messages = body['messages'];
  if (messages === undefined) return { error: compatMissingParameter('messages') };
  if (!Array.isArray(messages) || messages.length === 0) {
    return { error: compatInvalidValue('messages', "Invalid 'messages': expected a non-empty array.") };
  }
  const choiceCount = body['n'] ?? 1;
  if (
    typeof choiceCount !== 'number' ||
    !Number.isInteger(choiceCount) ||
    choiceCount < 1 ||
    choiceCount > MAX_CHOICES
  ) {
    return {
      error: compatInvalidValue('n', `Invalid 'n': expected an integer between 1 and ${MAX_CHOICES}.`),
    };
  }
  const maxTokens = body['max_completion_tokens'] ?? body['max_tokens'];
  if (maxTokens !== undefined && maxTokens !== null && !isPositiveInteger(maxTokens)) {
    return { error: compatInvalidValue('max_tokens', "Invalid 'max_tokens': expected a positive integer.") };
  }
  const streamOptions = isRecord(body['stream_options']) ? body['stream_options'] : {};
  return {
    view: {
      model,
      messages,
      stream: body['stream'] === true,
      includeUsage: streamOptions['include_usage'] === true,
      choiceCount,
      maxTokens: isPositiveInteger(maxTokens) ? maxTokens : undefined,
      tools: functionToolsOf(body['tools']),
      toolChoice: body['tool_choice'],
    },
  };
}

/** Prompt tokens: four characters of text a token, a fixed cost per image part. */
export function countCompatPromptTokens(messages: unknown[]): number {
  let characters = 0;
  let imageTokens = 0;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const content = message['content'];
    if (typeof content === 'string') characters += content.length;
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (!isRecord(part)) continue;
        if (typeof part['text'] === 'string') characters += part['text'].length;
        else if (part['type'] === 'image_url') imageTokens += IMAGE_PART_TOKENS;
      }
    }
    if (Array.isArray(message['tool_calls'])) characters += JSON.stringify(message['tool_calls']).length;
  }
  return tokensForCharacters(characters) + imageTokens;
}

/**
 * The call the model must make: the scripted `tool=` function, else the function named by
 * `tool_choice`, else the first tool when `tool_choice` is "required". Arguments are samples built
 * from the declared parameters.
 */
export function forcedToolCallOf(
  view: CompatChatView,
  scriptedTool: string | undefined,
): CompatToolCall | undefined {
  const name = scriptedTool ?? forcedToolName(view);
  if (name === undefined) return undefined;
  const declared = view.tools.find((tool) => tool.name === name);
  return { name, arguments: JSON.stringify(sampleArgumentsFor(declared?.parameters)) };
}

function forcedToolName(view: CompatChatView): string | undefined {
  if (view.tools.length === 0) return undefined;
  const choice = view.toolChoice;
  if (choice === 'required') return view.tools[0].name;
  if (isRecord(choice) && isRecord(choice['function']) && typeof choice['function']['name'] === 'string') {
    return choice['function']['name'];
  }
  return undefined;
}

function functionToolsOf(tools: unknown): CompatFunctionTool[] {
  if (!Array.isArray(tools)) return [];
  const functions: CompatFunctionTool[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || !isRecord(tool['function'])) continue;
    const declared = tool['function'];
    if (typeof declared['name'] === 'string')
      functions.push({ name: declared['name'], parameters: declared['parameters'] });
  }
  return functions;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
