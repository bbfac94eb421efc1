import type {
  NativeFunctionDeclaration,
  NativeGenerateRequest,
  NativeGenerationConfig,
  NativeTool,
  NativeToolConfig,
} from '../native/native-request.types';
import type {
  OpenAiChatRequest,
  OpenAiFunctionTool,
  OpenAiNamedToolChoice,
  OpenAiReasoningEffort,
  OpenAiTool,
  OpenAiToolChoice,
} from '../openai/openai-chat.types';
import { toNativeSchema } from '../schema/json-schema.convert';
import { TranslationError, type TranslatedRequest } from '../translation-error';
import { toNativeConversation } from './openai-chat-to-native.messages';

/**
 * OpenAI-style chat request → native request, for an OpenAI-style client reaching a native channel.
 * `model` goes into the upstream path and `stream` / `stream_options` decide the route and the
 * usage chunk: both are the caller's business. Every other field is mapped, dropped with a
 * warning, or refused with a TranslationError; the rules are listed in the library README.
 */
export function toNativeRequest(openai: OpenAiChatRequest): TranslatedRequest<NativeGenerateRequest> {
  refuseUntranslatableFields(openai);
  const warnings = droppedFieldWarnings(openai);
  const { systemInstruction, contents } = toNativeConversation(openai.messages, warnings);
  if (contents.length === 0) {
    throw new TranslationError('messages', 'at least one user, assistant or tool message is needed');
  }
  const request: NativeGenerateRequest = { contents };
  if (systemInstruction) request.systemInstruction = systemInstruction;
  const generationConfig = generationConfigFrom(openai, warnings);
  if (Object.keys(generationConfig).length > 0) request.generationConfig = generationConfig;
  const tools = toNativeTools(openai.tools ?? [], warnings);
  if (tools) request.tools = [tools];
  if (openai.tool_choice !== undefined) request.toolConfig = toolConfigFrom(openai.tool_choice);
  return { request, warnings };
}

function refuseUntranslatableFields(openai: OpenAiChatRequest): void {
  if (openai.logit_bias && Object.keys(openai.logit_bias).length > 0) {
    throw new TranslationError('logit_bias', 'token biases have no native equivalent');
  }
  if (openai.audio) throw new TranslationError('audio', 'audio output is not available through this route');
  if (openai.modalities?.includes('audio')) {
    throw new TranslationError('modalities', 'audio output is not available through this route');
  }
  if (openai.prediction)
    throw new TranslationError('prediction', 'predicted outputs have no native equivalent');
  if (openai.web_search_options) {
    throw new TranslationError('web_search_options', 'hosted web search is not available through this route');
  }
  if (openai.functions || openai.function_call) {
    const field = openai.functions ? 'functions' : 'function_call';
    throw new TranslationError(field, 'legacy function calling is not supported; use tools and tool_choice');
  }
}

/** Fields with no native counterpart whose absence changes nothing the client can observe in the answer. */
function droppedFieldWarnings(openai: OpenAiChatRequest): string[] {
  const dropped: [keyof OpenAiChatRequest, string][] = [
    ['user', 'end-user ids are not sent upstream'],
    ['parallel_tool_calls', 'the native upstream decides how many calls a turn makes'],
    ['store', 'nothing is stored upstream'],
    ['metadata', 'nothing is stored upstream'],
    ['service_tier', 'the channel decides the tier'],
  ];
  return dropped
    .filter(([field]) => openai[field] !== undefined && openai[field] !== null)
    .map(([field, reason]) => `${field}: dropped; ${reason}`);
}

function generationConfigFrom(openai: OpenAiChatRequest, warnings: string[]): NativeGenerationConfig {
  const stop = typeof openai.stop === 'string' ? [openai.stop] : openai.stop;
  const config: NativeGenerationConfig = {
    temperature: openai.temperature ?? undefined,
    topP: openai.top_p ?? undefined,
    candidateCount: openai.n ?? undefined,
    maxOutputTokens: openai.max_completion_tokens ?? openai.max_tokens ?? undefined,
    stopSequences: stop ?? undefined,
    presencePenalty: openai.presence_penalty ?? undefined,
    frequencyPenalty: openai.frequency_penalty ?? undefined,
    seed: openai.seed ?? undefined,
    responseLogprobs: openai.logprobs ?? undefined,
    logprobs: openai.top_logprobs ?? undefined,
    ...responseFormatFrom(openai, warnings),
  };
  const thinkingBudget = thinkingBudgetFrom(openai.reasoning_effort);
  if (thinkingBudget !== undefined) config.thinkingConfig = { thinkingBudget };
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
}

type ResponseFormatFields = Pick<NativeGenerationConfig, 'responseMimeType' | 'responseSchema'>;

function responseFormatFrom(openai: OpenAiChatRequest, warnings: string[]): ResponseFormatFields {
  const format = openai.response_format;
  if (!format || format.type === 'text') return {};
  if (format.type === 'json_object') return { responseMimeType: 'application/json' };
  if (format.type === 'json_schema') {
    const jsonSchema = format.json_schema?.schema;
    if (!jsonSchema) return { responseMimeType: 'application/json' };
    const field = 'response_format.json_schema.schema';
    const { schema, droppedKeywords } = toNativeSchema(jsonSchema, field);
    warnDroppedKeywords(field, droppedKeywords, warnings);
    return { responseMimeType: 'application/json', responseSchema: schema };
  }
  const unknownFormat: { type?: unknown } = format;
  throw new TranslationError(
    'response_format.type',
    `response format "${String(unknownFormat.type)}" is not supported`,
  );
}

/**
 * Effort names become budgets that land in the same bucket of the reverse rule (≤1024 low,
 * ≤8192 medium, above high); `none` switches thinking off, `minimal` asks for a token budget of 128.
 */
const THINKING_BUDGETS: Record<OpenAiReasoningEffort, number> = {
  none: 0,
  minimal: 128,
  low: 1024,
  medium: 8192,
  high: 24576,
};

function thinkingBudgetFrom(effort: OpenAiReasoningEffort | null | undefined): number | undefined {
  if (effort === undefined || effort === null) return undefined;
  const budget = THINKING_BUDGETS[effort];
  if (budget === undefined) {
    throw new TranslationError('reasoning_effort', `reasoning effort "${String(effort)}" is not supported`);
  }
  return budget;
}

function warnDroppedKeywords(field: string, droppedKeywords: string[], warnings: string[]): void {
  if (droppedKeywords.length > 0) {
    warnings.push(
      `${field}: dropped schema keywords without a native equivalent: ${droppedKeywords.join(', ')}`,
    );
  }
}

function isFunctionTool(tool: OpenAiTool): tool is OpenAiFunctionTool {
  return tool.type === 'function';
}

function toNativeTools(tools: OpenAiTool[], warnings: string[]): NativeTool | undefined {
  if (tools.length === 0) return undefined;
  const functionDeclarations = tools.map((tool, index): NativeFunctionDeclaration => {
    if (!isFunctionTool(tool)) {
      throw new TranslationError(
        `tools[${index}].type`,
        `tool type "${tool.type}" is not supported; only functions are`,
      );
    }
    const declaration: NativeFunctionDeclaration = { name: tool.function.name };
    if (tool.function.description !== undefined) declaration.description = tool.function.description;
    if (tool.function.parameters) {
      const field = `tools[${index}].function.parameters`;
      const { schema, droppedKeywords } = toNativeSchema(tool.function.parameters, field);
      warnDroppedKeywords(field, droppedKeywords, warnings);
      declaration.parameters = schema;
    }
    return declaration;
  });
  return { functionDeclarations };
}

function isNamedToolChoice(toolChoice: OpenAiToolChoice): toolChoice is OpenAiNamedToolChoice {
  return (
    typeof toolChoice === 'object' &&
    toolChoice.type === 'function' &&
    typeof toolChoice.function === 'object'
  );
}

/** auto → AUTO, none → NONE, required → ANY, a named function → ANY limited to that name. */
function toolConfigFrom(toolChoice: OpenAiToolChoice): NativeToolConfig {
  if (toolChoice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (toolChoice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (toolChoice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (isNamedToolChoice(toolChoice)) {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolChoice.function.name] } };
  }
  const unknownChoice: unknown = toolChoice;
  const field = typeof unknownChoice === 'object' ? 'tool_choice.type' : 'tool_choice';
  throw new TranslationError(field, 'tool_choice must be auto, none, required or a named function');
}
