export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'forbidden_address'
  | 'unresolvable_host'
  | 'unreachable'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'invalid_header';

/**
 * Why a URL supplied by a client or an admin was not fetched, or may not be handed to an upstream;
 * callers map it to their own error.
 */
export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}
