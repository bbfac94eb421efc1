import type {
  NativeGenerateRequest,
  NativeGenerationConfig,
  NativeThinkingConfig,
  NativeTool,
  NativeToolConfig,
} from '../native/native-request.types';
import { NATIVE_BUILT_IN_TOOL_KINDS } from '../native/native-request.types';
import type {
  OpenAiChatRequest,
  OpenAiFunctionTool,
  OpenAiReasoningEffort,
  OpenAiResponseFormat,
} from '../openai/openai-chat.types';
import { toJsonSchema } from '../schema/json-schema.convert';
import { TranslationError, type TranslatedRequest } from '../translation-error';
import { toOpenAiChatMessages } from './native-to-openai-chat.messages';

export interface NativeToOpenAiChatOptions {
  /** Upstream model id. */
  model: string;
  stream: boolean;
}

/**
 * Native request → OpenAI-style chat request, for a native client reaching an OpenAI-style channel.
 * Every native field is either mapped, dropped with a warning, or refused with a TranslationError;
 * the rules are listed in the library README.
 */
export function toOpenAiChatRequest(
  native: NativeGenerateRequest,
  options: NativeToOpenAiChatOptions,
): TranslatedRequest<OpenAiChatRequest> {
  refuseUntranslatableFields(native);
  const warnings: string[] = [];
  const config = native.generationConfig ?? {};
  const request: OpenAiChatRequest = {
    model: options.model,
    messages: toOpenAiChatMessages(native),
    ...samplingFrom(config),
  };
  const responseFormat = responseFormatFrom(config);
  if (responseFormat) request.response_format = responseFormat;
  const reasoningEffort = reasoningEffortFrom(config.thinkingConfig, warnings);
  if (reasoningEffort) request.reasoning_effort = reasoningEffort;
  Object.assign(request, toolsFrom(native.tools ?? [], native.toolConfig));
  if (native.safetySettings && native.safetySettings.length > 0) {
    warnings.push(
      'safetySettings: dropped; the OpenAI-style wire has no per-request safety thresholds, the upstream policy applies',
    );
  }
  if (options.stream) {
    request.stream = true;
    // Billing needs the usage chunk, whatever the client asked for.
    request.stream_options = { include_usage: true };
  }
  return { request, warnings };
}

function refuseUntranslatableFields(native: NativeGenerateRequest): void {
  if (native.cachedContent !== undefined) {
    throw new TranslationError('cachedContent', 'cached contents live on native upstreams only');
  }
  const config = native.generationConfig ?? {};
  const refusedConfigFields: [keyof NativeGenerationConfig, string][] = [
    ['topK', 'top-K sampling has no OpenAI-style equivalent'],
    ['speechConfig', 'speech output is not available on an OpenAI-style chat channel'],
    ['imageConfig', 'image output is not available on an OpenAI-style chat channel'],
  ];
  for (const [field, reason] of refusedConfigFields) {
    if (config[field] !== undefined) throw new TranslationError(`generationConfig.${field}`, reason);
  }
  if (config.audioTimestamp) {
    throw new TranslationError(
      'generationConfig.audioTimestamp',
      'audio timestamps have no OpenAI-style equivalent',
    );
  }
  if (config.responseModalities?.some((modality) => modality !== 'TEXT')) {
    throw new TranslationError(
      'generationConfig.responseModalities',
      'an OpenAI-style chat channel returns text only',
    );
  }
}

type SamplingFields = Pick<
  OpenAiChatRequest,
  | 'temperature'
  | 'top_p'
  | 'max_tokens'
  | 'stop'
  | 'n'
  | 'seed'
  | 'presence_penalty'
  | 'frequency_penalty'
  | 'logprobs'
  | 'top_logprobs'
>;

function samplingFrom(config: NativeGenerationConfig): SamplingFields {
  const sampling: SamplingFields = {
    temperature: config.temperature,
    top_p: config.topP,
    max_tokens: config.maxOutputTokens,
    stop: config.stopSequences,
    n: config.candidateCount,
    seed: config.seed,
    presence_penalty: config.presencePenalty,
    frequency_penalty: config.frequencyPenalty,
    logprobs: config.responseLogprobs,
    top_logprobs: config.logprobs,
  };
  return Object.fromEntries(Object.entries(sampling).filter(([, value]) => value !== undefined));
}

function responseFormatFrom(config: NativeGenerationConfig): OpenAiResponseFormat | undefined {
  const mimeType = config.responseMimeType;
  if (mimeType === 'application/json') {
    return config.responseSchema
      ? {
          type: 'json_schema',
          json_schema: { name: 'response', schema: toJsonSchema(config.responseSchema) },
        }
      : { type: 'json_object' };
  }
  if (mimeType !== undefined && mimeType !== 'text/plain') {
    throw new TranslationError(
      'generationConfig.responseMimeType',
      `an OpenAI-style chat channel answers text/plain or application/json, not "${mimeType}"`,
    );
  }
  if (config.responseSchema) {
    throw new TranslationError(
      'generationConfig.responseSchema',
      'responseSchema needs responseMimeType application/json',
    );
  }
  return undefined;
}

const REASONING_LEVELS: readonly string[] = [
  'minimal',
  'low',
  'medium',
  'high',
] satisfies OpenAiReasoningEffort[];

function isReasoningLevel(level: string): level is OpenAiReasoningEffort {
  return REASONING_LEVELS.includes(level);
}

/**
 * thinkingLevel maps by name. thinkingBudget is bucketed: ≤1024 low, ≤8192 medium, above high;
 * 0 (thinking off) and -1 (dynamic) have no effort value, so the upstream default applies.
 */
function reasoningEffortFrom(
  thinking: NativeThinkingConfig | undefined,
  warnings: string[],
): OpenAiReasoningEffort | undefined {
  if (!thinking) return undefined;
  if (thinking.includeThoughts) {
    warnings.push(
      'generationConfig.thinkingConfig.includeThoughts: dropped; thought summaries are not available',
    );
  }
  if (thinking.thinkingLevel !== undefined) {
    const level = thinking.thinkingLevel.toLowerCase();
    if (!isReasoningLevel(level)) {
      throw new TranslationError(
        'generationConfig.thinkingConfig.thinkingLevel',
        `thinking level "${thinking.thinkingLevel}" has no OpenAI-style reasoning effort`,
      );
    }
    return level;
  }
  const budget = thinking.thinkingBudget;
  if (budget === undefined || budget === -1) return undefined;
  if (budget === 0) {
    warnings.push(
      'generationConfig.thinkingConfig.thinkingBudget: 0 dropped; reasoning cannot be switched off',
    );
    return undefined;
  }
  if (budget <= 1024) return 'low';
  return budget <= 8192 ? 'medium' : 'high';
}

type ToolFields = Pick<OpenAiChatRequest, 'tools' | 'tool_choice'>;

function toolsFrom(nativeTools: NativeTool[], toolConfig: NativeToolConfig | undefined): ToolFields {
  const tools = toOpenAiTools(nativeTools);
  if (tools.length === 0) return {};
  const callingConfig = toolConfig?.functionCallingConfig;
  const mode = callingConfig?.mode;
  if (mode === undefined) return { tools };
  if (mode === 'AUTO') return { tools, tool_choice: 'auto' };
  if (mode === 'NONE') return { tools, tool_choice: 'none' };
  if (mode !== 'ANY') {
    throw new TranslationError(
      'toolConfig.functionCallingConfig.mode',
      `function calling mode "${String(mode)}" is none of AUTO, ANY, NONE`,
    );
  }
  return forcedToolCall(tools, callingConfig?.allowedFunctionNames ?? []);
}

/**
 * ANY forces a call. One allowed name becomes a named tool_choice; several become `required`
 * with only the allowed functions declared, which forces a call among exactly those (the wire has
 * no "one of these" choice).
 */
function forcedToolCall(tools: OpenAiFunctionTool[], allowedNames: string[]): ToolFields {
  const declared = new Set(tools.map((tool) => tool.function.name));
  const undeclared = allowedNames.find((name) => !declared.has(name));
  if (undeclared !== undefined) {
    throw new TranslationError(
      'toolConfig.functionCallingConfig.allowedFunctionNames',
      `"${undeclared}" is not a declared function`,
    );
  }
  if (allowedNames.length === 0) return { tools, tool_choice: 'required' };
  if (allowedNames.length === 1) {
    return { tools, tool_choice: { type: 'function', function: { name: allowedNames[0] } } };
  }
  const allowed = new Set(allowedNames);
  return { tools: tools.filter((tool) => allowed.has(tool.function.name)), tool_choice: 'required' };
}

function toOpenAiTools(nativeTools: NativeTool[]): OpenAiFunctionTool[] {
  return nativeTools.flatMap((tool, index) => {
    const builtIn = NATIVE_BUILT_IN_TOOL_KINDS.find((kind) => tool[kind] !== undefined);
    if (builtIn) {
      throw new TranslationError(
        `tools[${index}].${builtIn}`,
        `the ${builtIn} tool runs on native upstreams only`,
      );
    }
    return (tool.functionDeclarations ?? []).map((declaration): OpenAiFunctionTool => {
      const definition: OpenAiFunctionTool['function'] = { name: declaration.name };
      if (declaration.description !== undefined) definition.description = declaration.description;
      if (declaration.parameters) definition.parameters = toJsonSchema(declaration.parameters);
      return { type: 'function', function: definition };
    });
  });
}
