import { ScriptedError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { pause } from '../timing.util';
import { kappaScriptedError } from './kappa-errors';
import { KappaStreamWriter } from './kappa-stream.writer';

/** How a stream ends: normally, with an output block, or with a failure after `after` chunks. */
export type KappaStreamEnding =
  | { kind: 'complete' }
  | { kind: 'block'; after: number; chunk: unknown }
  | { kind: 'error'; after: number; scripted: ScriptedError };

export interface KappaPlayback {
  call: SimulatedCall;
  writer: KappaStreamWriter;
  chunks: unknown[];
  intervalMs: number;
  ending: KappaStreamEnding;
}

/**
 * Writes the chunks `intervalMs` apart and stops as soon as the client goes away. A scripted timeout
 * mid-stream stalls for the hang time and then cuts the connection without a closing frame.
 */
export async function streamKappaChunks({
  call,
  writer,
  chunks,
  intervalMs,
  ending,
}: KappaPlayback): Promise<void> {
  const signal = call.exchange.signal;
  const limit = ending.kind === 'complete' ? chunks.length : Math.min(ending.after, chunks.length);
  for (let index = 0; index < limit; index += 1) {
    if (index > 0 && !(await pause(intervalMs, signal))) return;
    writer.writeChunk(chunks[index]);
  }
  if (ending.kind === 'complete') return writer.end();
  if (limit > 0 && !(await pause(intervalMs, signal))) return;
  if (ending.kind === 'block') {
    writer.writeChunk(ending.chunk);
    return writer.end();
  }
  if (ending.scripted.errorClass === 'timeout') {
    if (!(await pause(ending.scripted.hangMs, signal))) return;
    call.exchange.markClosedBySimulator();
    call.response.destroy();
    return;
  }
  writer.writeError(kappaScriptedError(ending.scripted).body);
  writer.end();
}
