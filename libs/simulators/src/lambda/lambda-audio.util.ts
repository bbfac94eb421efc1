import { ResultContent } from '../result-file.store';

/** An MPEG-1 Layer III frame header: 128 kbit/s, 44.1 kHz, no padding, joint stereo. */
const FRAME_HEADER = Buffer.from([0xff, 0xfb, 0x90, 0x64]);
/** 144 × 128000 / 44100, rounded down: the length of each such frame. */
const FRAME_BYTES = 417;
const COMPLETE_FRAMES = 240;

const cache = new Map<number, ResultContent>();

/**
 * The bytes of every simulated clip: silent MPEG audio frames, so content sniffers see `audio/mpeg`
 * and a Range takes a real part. A streaming clip is a shorter prefix of a complete one. Built once
 * per length; it plays as silence at best, which no test needs.
 */
export function simulatedMp3(part: 'streaming' | 'complete'): ResultContent {
  const frames = part === 'complete' ? COMPLETE_FRAMES : COMPLETE_FRAMES / 4;
  let content = cache.get(frames);
  if (!content) {
    const frame = Buffer.alloc(FRAME_BYTES);
    FRAME_HEADER.copy(frame);
    content = {
      contentType: 'audio/mpeg',
      bytes: Buffer.concat(Array.from({ length: frames }, () => frame)),
    };
    cache.set(frames, content);
  }
  return content;
}
