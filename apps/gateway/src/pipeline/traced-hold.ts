import { tracing } from '@gateway/observability';
import { GatewayError } from '@gateway/errors';

/** How a hold was taken: from a lease in memory (text), or as a row (images, characters, tasks). */
export type HoldSpanStyle = 'leased' | 'row';

/** A refused hold's kind: the client's error code (insufficient_balance, service_unavailable). */
function holdFailureKind(error: unknown): string {
  return error instanceof GatewayError ? error.code : 'error';
}

/**
 * Runs `take` (a hold, or its refusal thrown as the client's error) in a span of the request's trace:
 * the model and the hold's style, never the amount or the account (a figure of one customer's
 * spending). Used only when tracing is on.
 */
export function tracedHold<T>(style: HoldSpanStyle, model: string, take: () => Promise<T>): Promise<T> {
  return tracing.inSpan(
    'hold',
    { 'gateway.model': model, 'gateway.hold.style': style },
    async (span) => {
      const taken = await take();
      tracing.annotate(span, { 'gateway.hold.outcome': 'taken' });
      return taken;
    },
    holdFailureKind,
  );
}
