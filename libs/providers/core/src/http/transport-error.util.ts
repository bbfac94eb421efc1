import type { CancellationSignal } from './request-cancellation';
import { UpstreamError } from '../upstream-error';

/** Socket-level failures: the upstream (or the path to it) is unhealthy; another try may succeed. */
const OVERLOAD_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects fail with an AggregateError whose own code may be missing.
  return Array.isArray(errors) && errors.length > 0 ? errorCodeOf(errors[0]) : undefined;
}

/**
 * Maps an error thrown by the transport to what adapters expect: the signal's reason when the caller
 * aborted, an UpstreamError for network failures, and anything else (programming errors) unchanged.
 */
export function fromTransportError(error: unknown, signal: CancellationSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  const code = errorCodeOf(error);
  if (code === undefined) return error;
  if (TIMEOUT_CODES.has(code)) {
    return new UpstreamError({
      kind: 'timeout',
      retryable: true,
      message: `upstream timed out (${code})`,
      upstreamCode: code,
    });
  }
  if (OVERLOAD_CODES.has(code)) {
    return new UpstreamError({
      kind: 'overload',
      retryable: true,
      message: `upstream connection failed (${code})`,
      upstreamCode: code,
    });
  }
  return error;
}
