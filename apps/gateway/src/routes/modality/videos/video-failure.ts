// Moved to libs/contracts (views/), where worker-text's webhook events render failed videos too.
export { DEADLINE_REASON, videoErrorOf, type VideoError } from '@gateway/contracts';
