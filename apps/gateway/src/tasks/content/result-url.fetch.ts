import { SafeFetchError, type CancellationSignal, type SafeFetcher } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { discardBody, type OpenedContent } from './opened-content';

/**
 * A cap on one relayed body: the relay never holds it (it streams), so this only ends a result URL
 * that would stream without end.
 */
const RELAYED_VIDEO_MAX_BYTES = 8 * 1024 ** 3;

/**
 * Opens an upstream's result URL through the SSRF-safe fetcher, passing the client's range on. The
 * fetcher's time limit covers the answer's headers only: the body then flows at the client's pace,
 * and the client going away (`signal`) ends the upstream fetch. A URL the fetcher refuses (a private
 * address, or a redirect to one) is never connected to: a 502; a timeout a 504.
 */
export async function fetchResultUrl(
  fetcher: SafeFetcher,
  url: string,
  range: string | undefined,
  signal: CancellationSignal,
): Promise<OpenedContent> {
  try {
    const response = await fetcher.fetch(url, {
      signal,
      headers: range === undefined ? undefined : { range },
      maxBytes: RELAYED_VIDEO_MAX_BYTES,
      timeLimit: 'headers',
    });
    return { ...response, discard: () => discardBody(response.body) };
  } catch (error) {
    throw error instanceof SafeFetchError ? resultFetchRefusal(error) : error;
  }
}

function resultFetchRefusal(error: SafeFetchError): GatewayError {
  switch (error.code) {
    case 'forbidden_address':
      return new GatewayError(
        'bad_gateway',
        "The upstream's result URL points at a non-public address; the gateway does not fetch it.",
        { cause: error },
      );
    case 'timeout':
      return new GatewayError('upstream_timeout', "The upstream's result URL did not answer in time.", {
        cause: error,
      });
    default:
      return new GatewayError('bad_gateway', "The upstream's result URL could not be fetched.", {
        cause: error,
      });
  }
}
