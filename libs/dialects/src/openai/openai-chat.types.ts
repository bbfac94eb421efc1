/**
 * Wire types of the OpenAI-style chat completions dialect (upstreams.md §2.2). Fields the
 * translators refuse or drop are declared too, so that the rules about them are type-checked.
 */

export interface OpenAiTextContentPart {
  type: 'text';
  text: string;
}

export interface OpenAiImageContentPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export interface OpenAiAudioContentPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}

export interface OpenAiFileContentPart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export interface OpenAiRefusalContentPart {
  type: 'refusal';
  refusal: string;
}

export type OpenAiUserContentPart =
  OpenAiTextContentPart | OpenAiImageContentPart | OpenAiAudioContentPart | OpenAiFileContentPart;

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  /** `arguments` is a JSON text, as the model wrote it. */
  function: { name: string; arguments: string };
}

export interface OpenAiSystemMessage {
  role: 'system' | 'developer';
  content: string | OpenAiTextContentPart[];
  name?: string;
}

export interface OpenAiUserMessage {
  role: 'user';
  content: string | OpenAiUserContentPart[];
  name?: string;
}

export interface OpenAiAssistantMessage {
  role: 'assistant';
  content?: string | (OpenAiTextContentPart | OpenAiRefusalContentPart)[] | null;
  refusal?: string | null;
  tool_calls?: OpenAiToolCall[];
  name?: string;
}

export interface OpenAiToolMessage {
  role: 'tool';
  content: string | OpenAiTextContentPart[];
  tool_call_id: string;
}

/** Legacy role of the pre-tools function-calling API; declared so that it can be refused by name. */
export interface OpenAiFunctionMessage {
  role: 'function';
  content: string | null;
  name: string;
}

export type OpenAiChatMessage =
  | OpenAiSystemMessage
  | OpenAiUserMessage
  | OpenAiAssistantMessage
  | OpenAiToolMessage
  | OpenAiFunctionMessage;

export interface OpenAiFunctionDefinition {
  name: string;
  description?: string;
  /** JSON Schema. */
  parameters?: Record<string, unknown>;
  strict?: boolean | null;
}

export interface OpenAiFunctionTool {
  type: 'function';
  function: OpenAiFunctionDefinition;
}

/** Tool types other than functions (hosted tools); no native equivalent is mapped. */
export interface OpenAiOtherTool {
  type: Exclude<string, 'function'>;
  [key: string]: unknown;
}

export type OpenAiTool = OpenAiFunctionTool | OpenAiOtherTool;

export type OpenAiNamedToolChoice = { type: 'function'; function: { name: string } };

export type OpenAiToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | OpenAiNamedToolChoice
  | { type: Exclude<string, 'function'>; [key: string]: unknown };

export type OpenAiResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        description?: string;
        schema?: Record<string, unknown>;
        strict?: boolean | null;
      };
    };

export type OpenAiReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

/** A type alias, not an interface, so that it is assignable to `Record<string, unknown>`, the JSON object type of the adapter boundary. */
export type OpenAiChatRequest = {
  model: string;
  messages: OpenAiChatMessage[];
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  n?: number | null;
  stop?: string | string[] | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  seed?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  tools?: OpenAiTool[];
  tool_choice?: OpenAiToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: OpenAiResponseFormat;
  reasoning_effort?: OpenAiReasoningEffort | null;
  user?: string;
  store?: boolean | null;
  metadata?: Record<string, string> | null;
  service_tier?: string | null;
  logit_bias?: Record<string, number> | null;
  audio?: Record<string, unknown> | null;
  modalities?: ('text' | 'audio')[] | null;
  prediction?: Record<string, unknown> | null;
  web_search_options?: Record<string, unknown>;
  /** Legacy function calling, superseded by tools / tool_choice. */
  functions?: OpenAiFunctionDefinition[];
  function_call?: 'auto' | 'none' | { name: string };
};

export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface OpenAiTokenLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: { token: string; logprob: number; bytes?: number[] | null }[];
}

export interface OpenAiChoiceLogprobs {
  content: OpenAiTokenLogprob[] | null;
  refusal?: OpenAiTokenLogprob[] | null;
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface OpenAiResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal?: string | null;
  tool_calls?: OpenAiToolCall[];
}

export interface OpenAiChatChoice {
  index: number;
  message: OpenAiResponseMessage;
  finish_reason: OpenAiFinishReason | null;
  logprobs?: OpenAiChoiceLogprobs | null;
}

/** A type alias, not an interface, so that it is assignable to `Record<string, unknown>`, the JSON object type of the adapter boundary. */
export type OpenAiChatResponse = {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: OpenAiChatChoice[];
  usage?: OpenAiUsage | null;
  system_fingerprint?: string | null;
};

/** A piece of a tool call on a stream: `id` and `name` come first, `arguments` arrive in pieces. */
export interface OpenAiToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface OpenAiChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: OpenAiToolCallDelta[];
}

export interface OpenAiChunkChoice {
  index: number;
  delta: OpenAiChunkDelta;
  finish_reason: OpenAiFinishReason | null;
  logprobs?: OpenAiChoiceLogprobs | null;
}

/** A type alias, not an interface, so that it is assignable to `Record<string, unknown>`, the JSON object type of the adapter boundary. */
export type OpenAiChatChunk = {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  /** Empty on the final usage chunk. */
  choices: OpenAiChunkChoice[];
  usage?: OpenAiUsage | null;
  system_fingerprint?: string | null;
};
