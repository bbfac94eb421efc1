/** The events an endpoint can subscribe to (the push issue's list). */
export const WEBHOOK_EVENTS = [
  'video.completed',
  'video.failed',
  'video.cancelled',
  'music.completed',
  'music.failed',
  'image.completed',
  'image.failed',
  'asset.active',
  'asset.failed',
] as const;
