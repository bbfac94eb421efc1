import type { ChannelTestView } from '@gateway/contracts';
import {
  RequestCancellation,
  UpstreamError,
  type AdapterContext,
  type TextAdapter,
  type UpstreamFailure,
} from '@gateway/providers-core';
import type { ChannelModel } from '@gateway/routing';
import { oneTokenRequest } from './channel-test-call.util';

/** How long a test waits for the whole answer; a hung upstream is answered as a timeout. */
export const CHANNEL_TEST_DEADLINE_MS = 30_000;

/**
 * One 1-token generation through the type's own text adapter and the gateway's HTTP client, timed.
 * A failure is answered, not thrown: the adapter's classifier names its kind. `redact` removes the
 * channel's secret from an upstream message that would echo it.
 */
export async function runTextTest(
  adapter: TextAdapter,
  model: ChannelModel,
  context: Omit<AdapterContext, 'signal'>,
  redact: (message: string) => string,
): Promise<ChannelTestView> {
  const cancellation = new RequestCancellation();
  const deadline = setTimeout(() => cancellation.abort(), CHANNEL_TEST_DEADLINE_MS);
  const started = performance.now();
  const answered = { model: model.model, capability: 'text' };
  try {
    const request = oneTokenRequest(adapter.dialect, model.upstreamModel);
    await adapter.generate(
      { upstreamModel: model.upstreamModel, request },
      { ...context, signal: cancellation },
    );
    return { ok: true, latencyMs: elapsedMs(started), ...answered };
  } catch (error) {
    const failure = failureOf(error, cancellation);
    return {
      ok: false,
      latencyMs: elapsedMs(started),
      ...answered,
      ...(failure.httpStatus === undefined ? {} : { status: failure.httpStatus }),
      error: { kind: failure.kind, message: redact(failure.message) },
    };
  } finally {
    clearTimeout(deadline);
  }
}

/** Anything but an upstream failure or our own deadline is a bug, and goes on as a 500. */
function failureOf(
  error: unknown,
  cancellation: RequestCancellation,
): Pick<UpstreamFailure, 'kind' | 'message' | 'httpStatus'> {
  if (error instanceof UpstreamError) return error.failure;
  if (cancellation.aborted) {
    return { kind: 'timeout', message: `The upstream did not answer within ${CHANNEL_TEST_DEADLINE_MS} ms.` };
  }
  throw error;
}

/** Rounded up: a call that happened took time, even under a millisecond. */
function elapsedMs(started: number): number {
  return Math.max(1, Math.ceil(performance.now() - started));
}
