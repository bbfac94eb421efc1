// Moved to libs/contracts (views/), where worker-text's webhook events render failed tasks too.
export { upstreamFailureOfReason } from '@gateway/contracts';
