import type { CancellationSignal, GeneratedImage, SafeFetcher } from '@gateway/providers-core';
import { inspectImage } from './image-bytes.util';

export interface DownloadedImage {
  bytes: Buffer;
  contentType: string;
}

/**
 * Downloads an image an upstream answered with a URL, through the SSRF-safe fetcher: a URL that
 * resolves to (or redirects to) a private, loopback, link-local or metadata address is refused before
 * any connection, and size and time are capped. The bytes must be an image, whatever the upstream's
 * Content-Type says.
 */
export async function downloadImage(
  fetcher: SafeFetcher,
  url: string,
  signal: CancellationSignal,
): Promise<DownloadedImage> {
  const response = await fetcher.fetch(url, { signal });
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) {
    // Stopping early frees the connection: an error page is not read to its end.
    if (response.status !== 200) break;
    chunks.push(chunk);
  }
  if (response.status !== 200) throw new Error(`the image URL answered ${response.status}`);
  const bytes = Buffer.concat(chunks);
  const image = inspectImage(bytes);
  if (!image) throw new Error('the image URL did not answer with an image');
  return { bytes, contentType: image.contentType };
}

/**
 * The bytes of an image an upstream produced: as sent, or downloaded when it sent a URL. Their type
 * is read from the bytes, never taken from the wire's claim; bytes that are no image are refused.
 */
export function bytesOfGeneratedImage(
  image: GeneratedImage,
  fetcher: SafeFetcher,
  signal: CancellationSignal,
): Promise<DownloadedImage> {
  if (image.kind === 'url') return downloadImage(fetcher, image.url, signal);
  const inspected = inspectImage(image.bytes);
  if (!inspected) return Promise.reject(new Error('the upstream sent bytes that are no image'));
  return Promise.resolve({ bytes: image.bytes, contentType: inspected.contentType });
}
