// Moved to libs/contracts (views/), where worker-text's webhook events render music tasks too.
export { musicClipUrls, musicContentUrl, toLambdaTaskView, type MusicTaskColumns } from '@gateway/contracts';
