import type { NativeContent, NativeHarmCategory } from './native-request.types';

/** Wire types of the native generation response (upstreams.md §1.4–§1.6). */

export type NativeFinishReason =
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY'
  | 'IMAGE_PROHIBITED_CONTENT'
  | 'IMAGE_RECITATION'
  | 'IMAGE_OTHER'
  | 'NO_IMAGE'
  | 'UNEXPECTED_TOOL_CALL'
  | 'TOO_MANY_TOOL_CALLS'
  | 'FINISH_REASON_UNSPECIFIED';

export type NativeBlockReason =
  'SAFETY' | 'OTHER' | 'BLOCKLIST' | 'PROHIBITED_CONTENT' | 'IMAGE_SAFETY' | 'BLOCK_REASON_UNSPECIFIED';

export interface NativeSafetyRating {
  category: NativeHarmCategory;
  probability: 'NEGLIGIBLE' | 'LOW' | 'MEDIUM' | 'HIGH';
}

export interface NativeLogprobsCandidate {
  token: string;
  logProbability: number;
}

/** Token log probabilities of a candidate, returned when `responseLogprobs` was set. */
export interface NativeLogprobsResult {
  /** Per output position, the `logprobs` most likely tokens. */
  topCandidates?: { candidates: NativeLogprobsCandidate[] }[];
  /** Per output position, the token actually chosen. */
  chosenCandidates?: NativeLogprobsCandidate[];
}

export interface NativeCandidate {
  /** Absent or empty for a blocked output. */
  content?: NativeContent;
  finishReason?: NativeFinishReason;
  index?: number;
  safetyRatings?: NativeSafetyRating[];
  logprobsResult?: NativeLogprobsResult;
}

export interface NativePromptFeedback {
  blockReason?: NativeBlockReason;
  safetyRatings?: NativeSafetyRating[];
}

export interface NativeModalityTokenCount {
  modality: 'TEXT' | 'IMAGE' | 'AUDIO' | 'VIDEO';
  tokenCount: number;
}

/** Token counts (§1.5). On a stream they are cumulative: the last one seen is authoritative. */
export interface NativeUsageMetadata {
  /** All input tokens, cached ones included. */
  promptTokenCount?: number;
  /** Subset of promptTokenCount served from cachedContent; absent when 0. */
  cachedContentTokenCount?: number;
  /** Visible output tokens of all candidates (image tokens included). */
  candidatesTokenCount?: number;
  /** Reasoning tokens: not part of candidatesTokenCount, billed as output; absent when 0. */
  thoughtsTokenCount?: number;
  /** Tool results fed back to the model; not part of promptTokenCount; absent when 0. */
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
  promptTokensDetails?: NativeModalityTokenCount[];
  candidatesTokensDetails?: NativeModalityTokenCount[];
}

/** A type alias, not an interface, so that it is assignable to `Record<string, unknown>`, the JSON object type of the adapter boundary. */
export type NativeGenerateResponse = {
  /** Absent or empty when the prompt was blocked (see promptFeedback). */
  candidates?: NativeCandidate[];
  promptFeedback?: NativePromptFeedback;
  usageMetadata?: NativeUsageMetadata;
  modelVersion?: string;
  responseId?: string;
};
