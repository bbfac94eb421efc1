import { performance } from 'node:perf_hooks';
import { randomAlphanumeric } from '../random-id.util';

/** What every business envelope of one call shares. */
export interface BetaEnvelopeMeta {
  requestId: string;
  startedAtMs: number;
}

export function newBetaEnvelopeMeta(): BetaEnvelopeMeta {
  return { requestId: newBetaRequestId(), startedAtMs: performance.now() };
}

/** `20250101120000` followed by upper-case hex-like characters, the wire's request-id shape. */
export function newBetaRequestId(): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomAlphanumeric(18).toUpperCase()}`;
}

/** `{code, status, message, request_id, time_elapsed, data}` (upstreams.md §4.3). */
export function betaEnvelope(
  code: number,
  message: string,
  data: Record<string, unknown> | null,
  meta: BetaEnvelopeMeta,
): Record<string, unknown> {
  return {
    code,
    status: code,
    message,
    request_id: meta.requestId,
    time_elapsed: `${(performance.now() - meta.startedAtMs).toFixed(1)}ms`,
    data,
  };
}
