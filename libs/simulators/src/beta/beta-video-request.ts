import { decodeBase64Image, inspectImage } from '../uploaded-image.util';

/** A validated video submission (upstreams.md §4.3); the answer shows nothing of it but the `req_key`. */
export interface BetaVideoSubmission {
  reqKey: string;
}

export type BetaVideoSubmissionResult = { submission: BetaVideoSubmission } | { refusal: string };

/** How many images each video `req_key` takes (§4.3: the mode follows the image count). */
const IMAGE_COUNTS_BY_REQ_KEY: Readonly<Record<string, readonly number[]>> = {
  beta_t2v_v30: [0],
  beta_i2v_first_v30: [1],
  beta_i2v_first_tail_v30: [2],
  beta_t2v_v30_1080p: [0],
  beta_i2v_first_v30_1080: [1],
  beta_i2v_first_tail_v30_1080: [2],
  beta_ti2v_v30_pro: [0, 1],
  beta_vgfm_t2v_l20: [0],
  beta_vgfm_i2v_l20: [1],
};

const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
/**
 * `frames` is `24 × seconds + 1`; the wire names 121 (5 s, default) and 241 (10 s). 361 (15 s) is the
 * project's reading of the formula for the interface's 15 seconds‡.
 */
const FRAMES = [121, 241, 361];
const DEFAULT_FRAMES = 121;
const MAX_PROMPT_CHARACTERS = 800;
const MAX_IMAGE_BYTES = 4.7 * 1024 * 1024;
const MAX_SIDE = 4096;
const MIN_SHORT_SIDE = 320;
const MAX_SIDE_RATIO = 3;
const HTTP_URL = /^https?:\/\/\S+$/;

export function isBetaVideoReqKey(reqKey: unknown): reqKey is string {
  return typeof reqKey === 'string' && Object.hasOwn(IMAGE_COUNTS_BY_REQ_KEY, reqKey);
}

export function toBetaVideoSubmission(body: Record<string, unknown>): BetaVideoSubmissionResult {
  const reqKey = body['req_key'];
  if (!isBetaVideoReqKey(reqKey))
    return { refusal: `req_key must be one of ${Object.keys(IMAGE_COUNTS_BY_REQ_KEY).join(', ')}` };
  const imageCounts = IMAGE_COUNTS_BY_REQ_KEY[reqKey];
  const images = videoImageCountOf(body['image_urls'], body['binary_data_base64']);
  if (typeof images === 'string') return { refusal: images };
  if (!imageCounts.includes(images)) {
    return { refusal: `${reqKey} takes ${imageCounts.join(' or ')} images, not ${images}` };
  }
  const prompt = body['prompt'];
  if (prompt !== undefined && typeof prompt !== 'string') return { refusal: 'prompt must be a string' };
  if (images === 0 && !prompt) return { refusal: 'prompt is required in text to video' };
  if (prompt && prompt.length > MAX_PROMPT_CHARACTERS) {
    return { refusal: `prompt must be at most ${MAX_PROMPT_CHARACTERS} characters` };
  }
  const frames = body['frames'] ?? DEFAULT_FRAMES;
  if (typeof frames !== 'number' || !FRAMES.includes(frames))
    return { refusal: `frames must be one of ${FRAMES.join(', ')}` };
  const ratio = body['aspect_ratio'];
  if (ratio !== undefined && (typeof ratio !== 'string' || !RATIOS.includes(ratio))) {
    return { refusal: `aspect_ratio must be one of ${RATIOS.join(', ')}` };
  }
  const seed = body['seed'];
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed)))
    return { refusal: 'seed must be an integer' };
  return { submission: { reqKey } };
}

/**
 * The number of images of a video submission, or why they are refused: URLs or Base64 (never both),
 * each upload within the §4.3 limits (a URL's image is not fetched).
 */
function videoImageCountOf(urls: unknown, base64: unknown): number | string {
  if (urls !== undefined && base64 !== undefined) return 'image_urls and binary_data_base64 are exclusive';
  if (urls !== undefined) {
    if (!Array.isArray(urls) || !urls.every((url) => typeof url === 'string' && HTTP_URL.test(url))) {
      return 'image_urls must be an array of http(s) URLs';
    }
    return urls.length;
  }
  if (base64 === undefined) return 0;
  if (!Array.isArray(base64)) return 'binary_data_base64 must be an array';
  for (const item of base64) {
    // The wire takes bare Base64: a `data:` prefix is refused like any other non-Base64 text.
    const bytes = typeof item === 'string' && !item.startsWith('data:') ? decodeBase64Image(item) : undefined;
    const image = bytes ? inspectImage(bytes) : undefined;
    if (!bytes || !image) return 'binary_data_base64 items must be Base64 images';
    if (bytes.length > MAX_IMAGE_BYTES) return 'binary_data_base64 images must be at most 4.7 MB';
    const long = Math.max(image.width, image.height);
    const short = Math.min(image.width, image.height);
    if (long > MAX_SIDE) return `images must be at most ${MAX_SIDE}x${MAX_SIDE}`;
    if (short < MIN_SHORT_SIDE) return `images must have a short side of at least ${MIN_SHORT_SIDE}`;
    if (long > short * MAX_SIDE_RATIO) return `images must have sides within ${MAX_SIDE_RATIO}:1`;
  }
  return base64.length;
}
