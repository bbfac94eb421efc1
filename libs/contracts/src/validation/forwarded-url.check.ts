import { checkForwardedUrl, PrivateHostAllowList, SafeFetchError } from '@gateway/providers-core';

/**
 * What a body's rules may need beyond the body itself: the operator's settings that decide whether a
 * field is acceptable. The route passes it to checkBody, which hands it to every rule it runs.
 */
export interface BodyCheckContext {
  /** SSRF_ALLOW_HOSTS: private hosts and addresses a URL handed to an upstream may name all the same. */
  readonly forwardedUrlAllowList: PrivateHostAllowList;
}

/**
 * No exceptions: what a check made without the operator's settings applies (class-validator's path,
 * a caller that passes none), so that leaving them out refuses more, never less.
 */
export const STRICT_BODY_CHECKS: BodyCheckContext = Object.freeze({
  forwardedUrlAllowList: new PrivateHostAllowList([]),
});

/**
 * The one policy for a URL the gateway hands to an upstream (docs/urls.md, checkForwardedUrl), as a
 * field's problem: undefined when `url` may be passed on. Thrown only for a refused URL, so a body
 * that passes pays one regular expression test and one URL parse per URL, and a body without URLs
 * nothing.
 */
export function checkForwardedUrlValue(url: string, context: BodyCheckContext): string | undefined {
  try {
    checkForwardedUrl(url, context.forwardedUrlAllowList);
    return undefined;
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    return `must be a public http(s) URL the upstream can fetch: ${error.message}`;
  }
}
