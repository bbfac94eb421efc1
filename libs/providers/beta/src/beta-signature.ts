/**
 * beta's signing scope (upstreams.md §4.1): the region and service its BETA-HMAC-SHA256 signatures
 * name unless a channel's settings say otherwise. The scheme itself is in core (signBetaRequest),
 * shared with the eta asset control plane, which signs with its own scope.
 */
export const BETA_DEFAULT_REGION = 'cn-north-1';
export const BETA_DEFAULT_SERVICE = 'cv';
