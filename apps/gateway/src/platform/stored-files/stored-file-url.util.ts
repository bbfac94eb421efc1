import type { FastifyRequest } from 'fastify';

export { STORED_FILES_PATH, storedFileUrl } from '@gateway/storage';

/**
 * The start of the absolute URLs the gateway writes into answers: PUBLIC_BASE_URL when set (what a
 * deployment behind a proxy or a CDN should do), otherwise the scheme and host the request came in
 * on (X-Forwarded-Proto and -Host count only from proxies TRUST_PROXY names).
 */
export function publicBaseOf(publicBaseUrl: string | undefined, request: FastifyRequest): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
