import type { FastifyRequest } from 'fastify';
import { GatewayError } from '@gateway/errors';

const HEADER = 'idempotency-key';
const MAX_LENGTH = 255;
/** Printable ASCII: a key is an opaque token the client chose, stored and compared as sent. */
const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * The `Idempotency-Key` header of a task submission, when the client sent one: at most 255 printable
 * characters, sent once. The same key maps the same request to the same task.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    throw GatewayError.invalidRequest('Idempotency-Key must be sent once.', 'Idempotency-Key');
  }
  if (value.length > MAX_LENGTH) {
    throw GatewayError.invalidRequest(
      `Idempotency-Key must be at most ${MAX_LENGTH} characters.`,
      'Idempotency-Key',
    );
  }
  if (!PRINTABLE.test(value)) {
    throw GatewayError.invalidRequest('Idempotency-Key must be printable ASCII.', 'Idempotency-Key');
  }
  return value;
}
