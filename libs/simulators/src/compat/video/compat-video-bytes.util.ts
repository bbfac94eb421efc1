import { EncodedImage, solidImage } from '../../image-bytes.util';
import { ResultContent } from '../../result-file.store';
import { videoDimensionsOf } from './compat-video-models';
import { PLAYABLE_CLIP_BASE64 } from './playable-clip.data';

export type VideoVariant = 'video' | 'thumbnail' | 'spritesheet';

export const VIDEO_VARIANTS: readonly VideoVariant[] = ['video', 'thumbnail', 'spritesheet'];

/** About 300 KB: large enough that a relay reads it in several chunks and a Range takes a real part. */
const PADDING_BYTES = 300 * 1024;
const SPRITE_FRAMES = 5;
const SPRITE_FRAME_WIDTH = 160;

let mp4: ResultContent | undefined;

/**
 * The bytes of every simulated video: an ISO BMFF file that plays (a one-second clip: `ftyp`, `moov`,
 * its fragments), then a `free` box of pseudo-random bytes from a fixed seed, which players skip. So
 * content sniffers see `video/mp4`, a browser can show it (the console's task preview), and a Range
 * can be checked against a known body of about 300 KB. Built once.
 */
export function simulatedMp4(): ResultContent {
  if (mp4) return mp4;
  const clip = Buffer.from(PLAYABLE_CLIP_BASE64, 'base64');
  const payload = Buffer.alloc(PADDING_BYTES);
  let state = 0x2545f491;
  for (let index = 0; index < payload.length; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    payload[index] = state >>> 24;
  }
  mp4 = { contentType: 'video/mp4', bytes: Buffer.concat([clip, box('free', payload)]) };
  return mp4;
}

/** `/content?variant=`: the video, a WebP thumbnail of the video's size, or a JPEG strip of frames. */
export function videoVariantContent(variant: VideoVariant, size: string): ResultContent {
  if (variant === 'video') return simulatedMp4();
  const { width, height } = videoDimensionsOf(size);
  if (variant === 'thumbnail') return solidImage('webp', width, height);
  const frameHeight = Math.max(1, Math.round((SPRITE_FRAME_WIDTH * height) / width));
  const sprite: EncodedImage = solidImage('jpeg', SPRITE_FRAME_WIDTH * SPRITE_FRAMES, frameHeight);
  return sprite;
}

function box(type: string, payload: Buffer): Buffer {
  return Buffer.concat([uint32(8 + payload.length), Buffer.from(type, 'ascii'), payload]);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
