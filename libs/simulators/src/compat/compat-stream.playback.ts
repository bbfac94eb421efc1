import { ScriptedError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { pause } from '../timing.util';
import { compatScriptedError } from './compat-errors';
import { CompatReply } from './compat-reply';
import {
  CompatResponseMeta,
  toCompatArgumentsChunk,
  toCompatContentChunk,
  toCompatFinishChunk,
  toCompatOpeningChunk,
  toCompatUsageChunk,
} from './compat-response.builder';
import { CompatStreamWriter } from './compat-stream.writer';

/** How a stream ends: normally, or with a failure after `after` content steps. */
export type CompatStreamEnding =
  { kind: 'complete' } | { kind: 'error'; after: number; scripted: ScriptedError };

export interface CompatPlayback {
  call: SimulatedCall;
  writer: CompatStreamWriter;
  reply: CompatReply;
  meta: CompatResponseMeta;
  toolCallIds: string[];
  includeUsage: boolean;
  intervalMs: number;
  ending: CompatStreamEnding;
}

/**
 * Writes the stream step by step, `intervalMs` apart: the opening delta (role, and the tool call's id
 * and name) travels with the first content step; each later step carries one piece per choice; then
 * the finish chunks, the usage chunk when asked for, and `[DONE]`. A scripted failure after `after`
 * steps becomes one error event and a close (content_policy: a `content_filter` finish instead;
 * timeout: a stall, then a cut connection).
 */
export async function streamCompatReply(playback: CompatPlayback): Promise<void> {
  const { call, writer, reply, meta, toolCallIds, intervalMs, ending } = playback;
  const signal = call.exchange.signal;
  const steps = contentStepsOf(reply, meta, toolCallIds);
  const limit = ending.kind === 'complete' ? steps.length : Math.min(ending.after, steps.length);
  for (let step = 0; step < limit; step += 1) {
    if (step > 0 && !(await pause(intervalMs, signal))) return;
    for (const chunk of steps[step]) writer.writeEvent(chunk);
  }
  if (ending.kind === 'complete') return finish(playback, reply.finishReason);
  if (limit > 0 && !(await pause(intervalMs, signal))) return;
  if (ending.scripted.errorClass === 'content_policy') return finish(playback, 'content_filter');
  if (ending.scripted.errorClass === 'timeout') {
    if (!(await pause(ending.scripted.hangMs, signal))) return;
    call.exchange.markClosedBySimulator();
    call.response.destroy();
    return;
  }
  writer.writeEvent(compatScriptedError(ending.scripted).body);
  writer.end();
}

function finish(
  { writer, reply, meta, toolCallIds, includeUsage }: CompatPlayback,
  finishReason: string,
): void {
  toolCallIds.forEach((_id, index) => writer.writeEvent(toCompatFinishChunk(meta, index, finishReason)));
  if (includeUsage) writer.writeEvent(toCompatUsageChunk(meta, reply.usage));
  writer.writeDone();
  writer.end();
}

function contentStepsOf(reply: CompatReply, meta: CompatResponseMeta, toolCallIds: string[]): unknown[][] {
  const pieces = reply.toolCall ? reply.argumentPieces : reply.pieces;
  const stepCount = Math.max(pieces.length, 1);
  const steps: unknown[][] = [];
  for (let step = 0; step < stepCount; step += 1) {
    const chunks: unknown[] = [];
    toolCallIds.forEach((toolCallId, index) => {
      if (step === 0) chunks.push(toCompatOpeningChunk(reply, meta, index, toolCallId));
      if (step >= pieces.length) return;
      chunks.push(
        reply.toolCall
          ? toCompatArgumentsChunk(meta, index, pieces[step])
          : toCompatContentChunk(meta, index, pieces[step]),
      );
    });
    steps.push(chunks);
  }
  return steps;
}
