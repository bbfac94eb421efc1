import type { FastifyRequest } from 'fastify';

/** Where stored files are served: outside /v1, whose routes all need a key (see StoredFilesController). */
export const STORED_FILES_PATH = '/files';

export function storedFileUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${STORED_FILES_PATH}/${id}`;
}

/**
 * The start of the absolute URLs the gateway writes into answers: PUBLIC_BASE_URL when set (what a
 * deployment behind a proxy or a CDN should do), otherwise the scheme and host the request came in
 * on (X-Forwarded-Proto and -Host count only from proxies TRUST_PROXY names).
 */
export function publicBaseOf(publicBaseUrl: string | undefined, request: FastifyRequest): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
