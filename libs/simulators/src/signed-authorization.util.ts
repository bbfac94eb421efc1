import { timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/** The fields of a signed call's `Authorization` header, split but not yet checked. */
export interface AuthorizationFields {
  /** `Credential`, split at `/`: the key id and then the credential scope. */
  credential: string[];
  /** `SignedHeaders`, as sent (`a;b;c`). */
  signedHeaders: string;
  /** `Signature`, hex. */
  signature: string;
}

/**
 * Reads `<ALGORITHM> Credential=<id>/<scope>, SignedHeaders=a;b, Signature=<hex>`, the header form the
 * HMAC-signed wires share; undefined for another algorithm or a missing field. Each wire checks the
 * credential's parts itself.
 */
export function authorizationFieldsOf(
  header: string | undefined,
  algorithm: string,
): AuthorizationFields | undefined {
  if (!header?.startsWith(`${algorithm} `)) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.slice(algorithm.length + 1).split(',')) {
    const separator = part.indexOf('=');
    if (separator > 0) fields.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim());
  }
  const credential = fields.get('Credential')?.split('/');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || !signedHeaders || !signature) return undefined;
  return { credential, signedHeaders, signature };
}

/** A header as the signer saw it: repeated values joined with commas. */
export function signedHeaderValueOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Compares a computed signature with a received one without leaking, by timing, where they differ. */
export function signaturesMatch(expected: string, received: string): boolean {
  const expectedBytes = Buffer.from(expected);
  const receivedBytes = Buffer.from(received);
  return expectedBytes.length === receivedBytes.length && timingSafeEqual(expectedBytes, receivedBytes);
}
