import { FastifyRequest } from 'fastify';
import { splitDirectivePrefix } from './directive-prefix.util';
import { EncodedImage } from './image-bytes.util';
import { ResultFileStore } from './result-file.store';

export const RESULT_FILES_PATH = '/files/';

/**
 * Publishes the image and returns its URL under the base the client used (`{base}/files/…`), the
 * `/@…` directive prefix included, so a download meets the same scripted latency as the call.
 */
export function publishResultFile(
  request: FastifyRequest,
  files: ResultFileStore,
  image: EncodedImage,
  lifetimeSeconds: number,
): string {
  return resultFileUrl(request, files.publish(image, lifetimeSeconds));
}

/** The URL of a published file; `host` replaces the simulator's own (a link into another network). */
export function resultFileUrl(request: FastifyRequest, fileName: string, host?: string): string {
  const { directives } = splitDirectivePrefix(request.originalUrl);
  const prefix = directives === undefined ? '' : `/@${directives}`;
  return `http://${host ?? request.headers.host ?? '127.0.0.1'}${prefix}${RESULT_FILES_PATH}${fileName}`;
}
