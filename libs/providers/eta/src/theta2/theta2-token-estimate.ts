import type { VideoCall } from '@gateway/providers-core';

/** The wire's frame rate (the query's `framespersecond`, upstreams.md §6.2). */
const FRAMES_PER_SECOND = 24;
/** Pixels of one frame per output token. */
const PIXELS_PER_TOKEN = 1024;
/** `duration: -1` lets the model choose, up to the longest it makes. */
const LONGEST_SECONDS = 15;
/** The concrete ratios; `adaptive` (or none) follows an input whose ratio the gateway does not know. */
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];

/**
 * The output tokens a 2.0 call is held for. The wire counts usage in tokens (§6.2): one token per
 * 1024 pixels of each frame, at 24 frames a second (the spec's own example: 720p 16:9 for 5 s is
 * about 108 900 tokens; this gives 108 000). A frame is the resolution's short side at the ratio, the
 * long side rounded to a multiple of 8; where the ratio follows the inputs (`adaptive`, or none
 * asked), the widest ratio's frame, so that the hold covers any; `duration -1` counts 15 s. The
 * settlement bills the tokens the upstream reports, which may be fewer.
 */
export function estimateTheta2Tokens(
  call: Pick<VideoCall, 'seconds' | 'resolution' | 'aspectRatio'>,
): number {
  const shortSide = Number.parseInt(call.resolution ?? '720p', 10);
  const ratios = call.aspectRatio !== null && RATIOS.includes(call.aspectRatio) ? [call.aspectRatio] : RATIOS;
  const pixels = Math.max(...ratios.map((ratio) => framePixels(shortSide, ratio)));
  const seconds = call.seconds > 0 ? call.seconds : LONGEST_SECONDS;
  return Math.ceil((pixels * FRAMES_PER_SECOND * seconds) / PIXELS_PER_TOKEN);
}

function framePixels(shortSide: number, ratio: string): number {
  const [width, height] = ratio.split(':').map(Number);
  const longSide = Math.round((shortSide * Math.max(width, height)) / Math.min(width, height) / 8) * 8;
  return shortSide * longSide;
}
