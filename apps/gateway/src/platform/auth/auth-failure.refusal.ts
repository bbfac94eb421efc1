import type { FastifyRequest } from 'fastify';
import type { AuthFailureThrottle } from '@gateway/auth';
import { GatewayError } from '@gateway/errors';

/**
 * What a failed authentication is answered with: its own refusal, or 429 with Retry-After once the
 * client's address has failed too often (counted across instances). Only failures get here, after the
 * credential was checked: a valid credential is admitted from any address, and costs the throttle
 * nothing.
 */
export async function refusalAfterFailure(
  failures: AuthFailureThrottle,
  request: FastifyRequest,
  refusal: GatewayError,
): Promise<GatewayError> {
  const verdict = await failures.recordFailure(request.ip);
  if (!verdict.throttled) return refusal;
  return new GatewayError(
    'rate_limited',
    'Too many failed authentication attempts from this address; retry later.',
    { retryAfterMs: verdict.retryAfterMs },
  );
}
