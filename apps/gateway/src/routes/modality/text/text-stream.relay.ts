import type { Logger } from 'pino';
import {
  UpstreamError,
  type TextStream,
  type TextStreamRead,
  type TokenUsage,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { toClientError } from '@gateway/routing';
import { endedByShutdown, SHUTDOWN_MESSAGE } from '../../../pipeline/in-flight-generations';
import type { GenerationOutcome } from '../../../pipeline/request-log-fields';
import { createCoalescingWriter } from '../../../platform/http/coalescing-writer';
import type { StreamSink } from '../../../pipeline/synchronous-generation';
import { textCharsInChunk, usageForEndedStream } from './partial-usage.util';
import { relayRead, type ReadRelay } from './read-relay';
import type { StreamFramer } from './stream-framing';
import type { AdmittedCandidate } from './text-admission';
import type { TextIngress } from './text-ingress';

/** The outcome of one text request, for its settlement and its log row. */
export interface TextOutcome extends GenerationOutcome {
  usage?: TokenUsage;
}

/** A stream whose first read is in hand: failover is over, the client has not had a byte yet. */
export interface OpenedTextStream {
  admitted: AdmittedCandidate;
  upstream: TextStream;
  iterator: AsyncIterator<TextStreamRead>;
  first: IteratorResult<TextStreamRead>;
}

/**
 * Writes an opened stream to the client read by read, after the pipeline wrote its head; backpressure
 * from the client slows the upstream read. Cut short by the client (nobody left to tell) or by the
 * shutdown deadline (told in its dialect), it is billed alike, for what was reported or delivered.
 */
export async function relayTextStream(
  ingress: TextIngress,
  opened: OpenedTextStream,
  attempts: number,
  framer: StreamFramer,
  sink: StreamSink,
  logger: Logger,
): Promise<TextOutcome> {
  const { admitted, upstream, iterator } = opened;
  const { raw, signal, ttfbMs } = sink;
  const onAbort = () => upstream.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let lastUsage: TokenUsage | undefined;
  let deliveredChars = 0;
  const write = createCoalescingWriter(raw);
  const relay: ReadRelay = {
    converter: admitted.bridge.createStreamConverter(),
    framer,
    write,
    onEvent: (event) => {
      if (event.usage) lastUsage = event.usage;
      deliveredChars += textCharsInChunk(event.chunk, admitted.adapter.dialect);
    },
  };
  const outcome = (endReason: string, usage: TokenUsage | undefined): TextOutcome => ({
    httpStatus: 200,
    endReason,
    usage,
    channelId: admitted.candidate.id,
    attempts,
    ttfbMs,
  });
  const endWithError = async (clientError: GatewayError) => {
    await write(framer.error(JSON.stringify(sink.errorBody(clientError))));
    raw.end();
  };
  const cutShort = async (): Promise<TextOutcome> => {
    const usage = usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars);
    if (!endedByShutdown(signal)) return outcome('client_disconnect', usage);
    await endWithError(new GatewayError('service_unavailable', SHUTDOWN_MESSAGE));
    return outcome('shutdown', usage);
  };

  try {
    let next = opened.first;
    while (!next.done) {
      await relayRead(next.value, relay);
      if (signal.aborted) break;
      next = await iterator.next();
    }
    if (signal.aborted) return await cutShort();
    for (const json of relay.converter.finish()) await write(framer.chunk(json));
    await write(framer.end());
    raw.end();
    return outcome('completed', lastUsage);
  } catch (error) {
    if (signal.aborted) return await cutShort();
    const usage = usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars);
    if (!(error instanceof UpstreamError)) {
      logger.error({ err: error, requestId: sink.requestId }, 'stream relay failed');
    }
    const clientError =
      error instanceof UpstreamError
        ? toClientError(error.failure)
        : new GatewayError('internal', 'The stream failed.', { cause: error });
    await endWithError(clientError);
    return outcome('upstream_error_mid_stream', usage);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
