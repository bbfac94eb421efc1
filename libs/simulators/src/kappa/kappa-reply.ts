import { Directives } from '../directives';
import { defaultReplyText, splitIntoPieces, tokensForText, truncateToTokens } from '../tokens.util';
import { KappaImageOutput, toKappaImageOutput } from './kappa-image';
import { isKappaImageModel } from './kappa-models';
import {
  KappaFunctionCall,
  KappaRequestView,
  ModalityTokenCount,
  countKappaPrompt,
  forcedFunctionCallOf,
  imageConfigOf,
  includeThoughtsOf,
  maxOutputTokensOf,
  responseModalitiesOf,
} from './kappa-request';

/** Final token counts of one reply; streams report growing shares of `candidates`. */
export interface KappaUsage {
  prompt: number;
  promptDetails: ModalityTokenCount[];
  candidates: number;
  candidatesDetails: ModalityTokenCount[];
  thoughts: number;
}

/** What the simulated model answers, independent of how it is framed (one response or chunks). */
export interface KappaReply {
  /** Text in stream-chunk order; empty when the answer has no text. */
  pieces: string[];
  thought?: string;
  functionCall?: KappaFunctionCall;
  image?: KappaImageOutput;
  finishReason: string;
  usage: KappaUsage;
}

export interface KappaReplyInput {
  view: KappaRequestView;
  model: string;
  directives: Directives;
  chunkCount: number;
}

const THOUGHT_SUMMARY = '**Planning the reply**\n\nThe simulator weighs the request before answering.';

export function planKappaReply({ view, model, directives, chunkCount }: KappaReplyInput): KappaReply {
  const promptDetails = countKappaPrompt(view);
  const thoughts = directives.thoughts ?? 0;
  const thought = thoughts > 0 && includeThoughtsOf(view) ? THOUGHT_SUMMARY : undefined;
  const functionCall = forcedFunctionCallOf(view, directives.tool);
  if (functionCall) {
    const outputTokens = tokensForText(JSON.stringify(functionCall));
    return {
      pieces: [],
      thought,
      functionCall,
      finishReason: directives.finish ?? 'STOP',
      usage: usageOf(directives, promptDetails, outputTokens, 0, thoughts),
    };
  }

  const modalities = responseModalitiesOf(view);
  const wantsImage = isKappaImageModel(model) && modalities.includes('IMAGE');
  const wantsText = !wantsImage || modalities.includes('TEXT');
  const image = wantsImage ? toKappaImageOutput(model, imageConfigOf(view)) : undefined;
  let text = wantsText ? (directives.text ?? defaultReplyText(chunkCount)) : '';
  const maxTokens = maxOutputTokensOf(view);
  const truncated = maxTokens !== undefined && tokensForText(text) > maxTokens;
  if (truncated) text = truncateToTokens(text, maxTokens);
  return {
    pieces: wantsText ? splitIntoPieces(text, chunkCount) : [],
    thought,
    image,
    finishReason: directives.finish ?? (truncated ? 'MAX_TOKENS' : 'STOP'),
    usage: usageOf(directives, promptDetails, tokensForText(text), image?.tokens ?? 0, thoughts),
  };
}

/** Prompt-side counts alone, for answers that produce no candidate content (blocked prompt or output). */
export function promptOnlyUsage(view: KappaRequestView, directives: Directives): KappaUsage {
  return usageOf(directives, countKappaPrompt(view), 0, 0, 0);
}

function usageOf(
  directives: Directives,
  promptDetails: ModalityTokenCount[],
  textTokens: number,
  imageTokens: number,
  thoughts: number,
): KappaUsage {
  const scripted = directives.usage;
  const candidates = scripted ? scripted.output : textTokens + imageTokens;
  const scriptedText = Math.max(0, candidates - imageTokens);
  const candidatesDetails: ModalityTokenCount[] = [
    { modality: 'TEXT', tokenCount: scripted ? scriptedText : textTokens },
  ];
  if (imageTokens > 0) candidatesDetails.push({ modality: 'IMAGE', tokenCount: imageTokens });
  return {
    prompt: scripted ? scripted.input : promptDetails.reduce((sum, detail) => sum + detail.tokenCount, 0),
    promptDetails: scripted ? [{ modality: 'TEXT', tokenCount: scripted.input }] : promptDetails,
    candidates,
    candidatesDetails,
    thoughts,
  };
}
