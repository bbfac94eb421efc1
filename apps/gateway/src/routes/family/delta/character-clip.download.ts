import { fileTypeFromBuffer } from 'file-type/core';
import { SafeFetchError, type CancellationSignal, type SafeFetcher } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';

export interface DownloadedClip {
  bytes: Buffer;
  /** Read from the bytes, never taken from the server's Content-Type. */
  contentType: string;
}

/**
 * Downloads the clip a client named in `character_url`, through the SSRF-safe fetcher: a URL at (or
 * redirecting to) a private, loopback, link-local or metadata address is refused before any
 * connection; size (SAFE_FETCH_MAX_BYTES) and time (SAFE_FETCH_TIMEOUT_MS) are capped. The bytes must
 * be a video, whatever the server says they are. Every refusal names `character_url`.
 */
export async function downloadCharacterClip(
  fetcher: SafeFetcher,
  url: string,
  signal: CancellationSignal,
): Promise<DownloadedClip> {
  let bytes: Buffer;
  try {
    const response = await fetcher.fetch(url, { signal });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) {
      // Stopping early frees the connection: an error page is not read to its end.
      if (response.status !== 200) break;
      chunks.push(chunk);
    }
    if (response.status !== 200) throw clipRefusal(`character_url answered HTTP ${response.status}.`);
    bytes = Buffer.concat(chunks);
  } catch (error) {
    throw error instanceof SafeFetchError ? fetchRefusal(error) : error;
  }
  const type = await fileTypeFromBuffer(bytes);
  if (!type?.mime.startsWith('video/')) {
    throw clipRefusal(`character_url is not a video (its bytes are ${type?.mime ?? 'of no known type'}).`);
  }
  return { bytes, contentType: type.mime };
}

function fetchRefusal(error: SafeFetchError): GatewayError {
  switch (error.code) {
    case 'forbidden_address':
      return clipRefusal('character_url points at a non-public address; the gateway does not fetch it.');
    case 'too_large':
      return new GatewayError(
        'payload_too_large',
        `The clip at character_url is too large: ${error.message}.`,
        {
          param: 'character_url',
        },
      );
    case 'timeout':
      return clipRefusal('character_url did not deliver the clip in time.');
    default:
      return clipRefusal(`character_url could not be fetched: ${error.message}.`);
  }
}

function clipRefusal(message: string): GatewayError {
  return GatewayError.invalidRequest(message, 'character_url');
}
