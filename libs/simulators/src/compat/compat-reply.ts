import { Directives } from '../directives';
import { defaultReplyText, splitIntoPieces, tokensForText, truncateToTokens } from '../tokens.util';
import { CompatChatView, CompatToolCall, countCompatPromptTokens, forcedToolCallOf } from './compat-request';

export interface CompatUsage {
  prompt: number;
  completion: number;
  reasoning: number;
}

/** What every choice of the simulated completion answers, independent of framing. */
export interface CompatReply {
  /** Content in stream-chunk order; empty for tool calls and filtered output. */
  pieces: string[];
  toolCall?: CompatToolCall;
  /** The tool-call arguments in stream-chunk order. */
  argumentPieces: string[];
  /** Output withheld by the content filter (`block=output`). */
  filtered: boolean;
  finishReason: string;
  usage: CompatUsage;
}

export interface CompatReplyInput {
  view: CompatChatView;
  directives: Directives;
  chunkCount: number;
}

export function planCompatReply({ view, directives, chunkCount }: CompatReplyInput): CompatReply {
  const prompt = countCompatPromptTokens(view.messages);
  const reasoning = directives.thoughts ?? 0;
  if (directives.block === 'output') {
    return {
      pieces: [],
      argumentPieces: [],
      filtered: true,
      finishReason: directives.finish ?? 'content_filter',
      usage: usageOf(directives, prompt, 0, reasoning),
    };
  }
  const toolCall = forcedToolCallOf(view, directives.tool);
  if (toolCall) {
    return {
      pieces: [],
      toolCall,
      argumentPieces: splitIntoPieces(toolCall.arguments, chunkCount),
      filtered: false,
      finishReason: directives.finish ?? 'tool_calls',
      usage: usageOf(directives, prompt, view.choiceCount * tokensForText(toolCall.arguments), reasoning),
    };
  }
  let text = directives.text ?? defaultReplyText(chunkCount);
  const truncated = view.maxTokens !== undefined && tokensForText(text) > view.maxTokens;
  if (truncated) text = truncateToTokens(text, view.maxTokens ?? 0);
  return {
    pieces: splitIntoPieces(text, chunkCount),
    argumentPieces: [],
    filtered: false,
    finishReason: directives.finish ?? (truncated ? 'length' : 'stop'),
    usage: usageOf(directives, prompt, view.choiceCount * tokensForText(text), reasoning),
  };
}

/** Scripted counts win; otherwise reasoning tokens are part of the completion, as on the wire. */
function usageOf(directives: Directives, prompt: number, visible: number, reasoning: number): CompatUsage {
  const scripted = directives.usage;
  if (scripted) return { prompt: scripted.input, completion: scripted.output, reasoning };
  return { prompt, completion: visible + reasoning, reasoning };
}
