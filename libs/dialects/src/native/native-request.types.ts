/**
 * Wire types of the native generation request (gateway-interface.md "Native generation request",
 * upstreams.md §1.3), camelCase spelling only: snake_case input goes through
 * `normaliseNativeRequest` first. Parts are tolerant shapes (every member optional) because the
 * wire says "exactly one of" without a tag; translators check which member is present.
 */

export type NativeRole = 'user' | 'model';

export interface NativeInlineData {
  mimeType: string;
  /** Base64 bytes. */
  data: string;
}

export interface NativeFileData {
  mimeType?: string;
  fileUri: string;
}

export interface NativeFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** Optional call id some clients send; echoed in the matching functionResponse. */
  id?: string;
}

export interface NativeFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
}

export interface NativePart {
  text?: string;
  inlineData?: NativeInlineData;
  fileData?: NativeFileData;
  functionCall?: NativeFunctionCall;
  functionResponse?: NativeFunctionResponse;
  /** Marks a thought-summary part: reasoning shown for transparency, never answer text. */
  thought?: boolean;
  /** Opaque reasoning state the client echoes back in later turns. */
  thoughtSignature?: string;
}

export interface NativeContent {
  /** Absent means `user` (single-turn requests often omit it). */
  role?: NativeRole;
  parts: NativePart[];
}

export type NativeModality = 'TEXT' | 'IMAGE' | 'AUDIO';

export interface NativeThinkingConfig {
  thinkingBudget?: number;
  includeThoughts?: boolean;
  /** Newer models: a level name instead of a budget. */
  thinkingLevel?: string;
}

export interface NativeImageConfig {
  aspectRatio?: string;
  imageSize?: string;
}

/**
 * The native schema dialect: an OpenAPI subset with upper-case type names (`OBJECT`, `STRING` …).
 * Kept open because clients send whatever their tooling generates.
 */
export type NativeSchema = Record<string, unknown>;

export interface NativeGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  responseSchema?: NativeSchema;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseLogprobs?: boolean;
  logprobs?: number;
  audioTimestamp?: boolean;
  speechConfig?: Record<string, unknown>;
  thinkingConfig?: NativeThinkingConfig;
  imageConfig?: NativeImageConfig;
  responseModalities?: NativeModality[];
}

export type NativeHarmCategory =
  | 'HARM_CATEGORY_HATE_SPEECH'
  | 'HARM_CATEGORY_HARASSMENT'
  | 'HARM_CATEGORY_SEXUALLY_EXPLICIT'
  | 'HARM_CATEGORY_DANGEROUS_CONTENT';

export type NativeHarmBlockThreshold =
  'BLOCK_NONE' | 'BLOCK_ONLY_HIGH' | 'BLOCK_MEDIUM_AND_ABOVE' | 'BLOCK_LOW_AND_ABOVE' | 'OFF';

export interface NativeSafetySetting {
  category: NativeHarmCategory;
  threshold: NativeHarmBlockThreshold;
}

export interface NativeFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: NativeSchema;
}

/** One tool entry; each carries exactly one kind. Only function declarations cross dialects. */
export interface NativeTool {
  functionDeclarations?: NativeFunctionDeclaration[];
  webSearch?: Record<string, unknown>;
  webSearchRetrieval?: Record<string, unknown>;
  codeExecution?: Record<string, unknown>;
  urlContext?: Record<string, unknown>;
  retrieval?: Record<string, unknown>;
}

/** Tool kinds other than function declarations, in the order the spec lists them. */
export const NATIVE_BUILT_IN_TOOL_KINDS = [
  'webSearch',
  'webSearchRetrieval',
  'codeExecution',
  'urlContext',
  'retrieval',
] as const;

export type NativeFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface NativeToolConfig {
  functionCallingConfig?: {
    mode?: NativeFunctionCallingMode;
    allowedFunctionNames?: string[];
  };
}

/** A type alias, not an interface, so that it is assignable to `Record<string, unknown>`, the JSON object type of the adapter boundary. */
export type NativeGenerateRequest = {
  contents: NativeContent[];
  systemInstruction?: NativeContent;
  generationConfig?: NativeGenerationConfig;
  safetySettings?: NativeSafetySetting[];
  tools?: NativeTool[];
  toolConfig?: NativeToolConfig;
  /** Identifier of a cached context kept by the upstream. */
  cachedContent?: string;
};
