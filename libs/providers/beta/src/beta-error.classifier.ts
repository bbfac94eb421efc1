import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  isJsonObject,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

/**
 * The business codes of upstreams.md §4.6 and their class. Output-side risk checks are retryable:
 * another run may produce an image that passes.
 */
const CLASS_OF_CODE: Readonly<Record<number, UpstreamClassification>> = {
  50411: ['content_policy', false],
  50412: ['content_policy', false],
  50413: ['content_policy', false],
  50511: ['content_policy', true],
  50512: ['content_policy', false],
  50516: ['content_policy', true],
  50517: ['content_policy', true],
  50518: ['content_policy', false],
  50519: ['content_policy', true],
  50520: ['overload', false],
  50521: ['overload', false],
  50522: ['overload', false],
  // Access Denied; also how the wire answers an exhausted balance, which has no code of its own.
  50400: ['auth', false],
  50429: ['rate_limit', true],
  50430: ['rate_limit', true],
  50500: ['overload', true],
  50501: ['overload', true],
};

/** `ResponseMetadata.Error.Code`s that blame the request rather than the credentials. */
const REQUEST_METADATA_CODES: ReadonlySet<string> = new Set(['InvalidActionOrVersion', 'MissingParameter']);

interface BetaErrorEnvelope {
  /** The business code, or the `ResponseMetadata.Error.Code` of a signature or routing failure. */
  code?: number | string;
  message?: string;
}

/** Reads either envelope of §4.2/§4.6 tolerantly. */
function envelopeOf(body: string): BetaErrorEnvelope {
  const payload = parseJsonObject(body);
  if (!payload) return {};
  const metadata = isJsonObject(payload.ResponseMetadata) ? payload.ResponseMetadata : undefined;
  if (metadata && isJsonObject(metadata.Error)) {
    const { Code, Message } = metadata.Error;
    return {
      code: typeof Code === 'string' ? Code : undefined,
      message: typeof Message === 'string' ? Message : undefined,
    };
  }
  return {
    code: typeof payload.code === 'number' ? payload.code : undefined,
    message: typeof payload.message === 'string' ? payload.message : undefined,
  };
}

/**
 * Maps a beta error answer to one failure (upstreams.md §4.6). The business code decides where it is
 * known; signature failures (`ResponseMetadata.Error`, HTTP 401) are `auth`; anything else follows
 * the HTTP status. Also used for a 2xx answer whose `code` is not the success code.
 */
export function classifyBetaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = envelopeOf(body);
  let classification: UpstreamClassification;
  if (typeof envelope.code === 'number' && CLASS_OF_CODE[envelope.code]) {
    classification = CLASS_OF_CODE[envelope.code];
  } else if (typeof envelope.code === 'string' && REQUEST_METADATA_CODES.has(envelope.code)) {
    classification = ['bad_request', false];
  } else {
    // An unlisted 4xx is the request's (§4.6).
    classification = classOfHttpStatus(status);
  }
  return failureOfHttpAnswer(classification, {
    status,
    headers,
    message: envelope.message,
    upstreamCode: envelope.code === undefined ? undefined : String(envelope.code),
  });
}
