import type { NativeLogprobsResult } from '../native/native-response.types';
import type { OpenAiChoiceLogprobs } from '../openai/openai-chat.types';

/**
 * OpenAI-style token logprobs → native logprobsResult: each position's chosen token goes to
 * chosenCandidates, its top alternatives to topCandidates at the same position.
 */
export function toNativeLogprobsResult(logprobs: OpenAiChoiceLogprobs): NativeLogprobsResult {
  const tokens = logprobs.content ?? [];
  return {
    chosenCandidates: tokens.map((token) => ({ token: token.token, logProbability: token.logprob })),
    topCandidates: tokens.map((token) => ({
      candidates: (token.top_logprobs ?? []).map((top) => ({
        token: top.token,
        logProbability: top.logprob,
      })),
    })),
  };
}

/** Native logprobsResult → OpenAI-style token logprobs; byte values are not known natively (null). */
export function toOpenAiLogprobs(result: NativeLogprobsResult): OpenAiChoiceLogprobs {
  const topCandidates = result.topCandidates ?? [];
  return {
    content: (result.chosenCandidates ?? []).map((chosen, position) => ({
      token: chosen.token,
      logprob: chosen.logProbability,
      bytes: null,
      top_logprobs: (topCandidates[position]?.candidates ?? []).map((top) => ({
        token: top.token,
        logprob: top.logProbability,
        bytes: null,
      })),
    })),
  };
}
