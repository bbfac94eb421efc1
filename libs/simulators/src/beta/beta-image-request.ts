import { parseJsonObject } from '../json-body.util';
import { isRecord } from '../sample-arguments.util';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';

/** A validated image submission (upstreams.md §4.3); the output size follows `width`/`height` or `size`. */
export interface BetaImageSubmission {
  reqKey: string;
  width: number;
  height: number;
  forceSingle: boolean;
}

/** A submission, or the reason it is an invalid parameter. */
export type BetaSubmissionResult = { submission: BetaImageSubmission } | { refusal: string };

const BETA_IMAGE_REQ_KEYS: readonly string[] = ['beta_t2i_v40', 'beta_t2i_v45'];
const MAX_PROMPT_CHARACTERS = 800;
const MAX_REFERENCES = 10;
const MAX_IMAGE_BYTES = 4.7 * 1024 * 1024;
const MIN_AREA = 1024 * 1024;
const MAX_AREA = 4096 * 4096;
const DEFAULT_AREA = 2048 * 2048;
const MAX_ASPECT = 16;
const HTTP_URL = /^https?:\/\/\S+$/;

export function toBetaImageSubmission(body: Record<string, unknown>): BetaSubmissionResult {
  const reqKey = body['req_key'];
  if (typeof reqKey !== 'string' || !BETA_IMAGE_REQ_KEYS.includes(reqKey)) {
    return { refusal: `req_key must be one of ${BETA_IMAGE_REQ_KEYS.join(', ')}` };
  }
  const references = referenceCountOf(body['image_urls'], body['binary_data_base64']);
  if (typeof references === 'string') return { refusal: references };
  const prompt = body['prompt'];
  if (prompt !== undefined && typeof prompt !== 'string') return { refusal: 'prompt must be a string' };
  if (references === 0 && !prompt) return { refusal: 'prompt is required without reference images' };
  if (prompt && prompt.length > MAX_PROMPT_CHARACTERS) {
    return { refusal: `prompt must be at most ${MAX_PROMPT_CHARACTERS} characters` };
  }
  const dimensions = dimensionsOf(body);
  if (typeof dimensions === 'string') return { refusal: dimensions };
  const numbersRefusal = optionalFieldsRefusal(body);
  if (numbersRefusal) return { refusal: numbersRefusal };
  return { submission: { reqKey, ...dimensions, forceSingle: body['force_single'] === true } };
}

/** The number of references, or why they are refused: URLs or Base64 (never both), 0–10. */
function referenceCountOf(urls: unknown, base64: unknown): number | string {
  if (urls !== undefined && base64 !== undefined) return 'image_urls and binary_data_base64 are exclusive';
  if (urls !== undefined) {
    if (!Array.isArray(urls) || !urls.every((url) => typeof url === 'string' && HTTP_URL.test(url))) {
      return 'image_urls must be an array of http(s) URLs';
    }
    return urls.length <= MAX_REFERENCES ? urls.length : `at most ${MAX_REFERENCES} image_urls`;
  }
  if (base64 !== undefined) {
    if (!Array.isArray(base64)) return 'binary_data_base64 must be an array';
    for (const item of base64) {
      // The wire takes bare Base64: a `data:` prefix is refused like any other non-Base64 text.
      const bytes =
        typeof item === 'string' && !item.startsWith('data:') ? decodeBase64Image(item) : undefined;
      if (!bytes || !inspectImage(bytes)) return 'binary_data_base64 items must be Base64 images';
      if (bytes.length > MAX_IMAGE_BYTES) return 'binary_data_base64 images must be at most 4.7 MB';
    }
    return base64.length <= MAX_REFERENCES
      ? base64.length
      : `at most ${MAX_REFERENCES} binary_data_base64 images`;
  }
  return 0;
}

/** `width` and `height` together, or the pixel area `size` (a square output), default 2048². */
function dimensionsOf(body: Record<string, unknown>): { width: number; height: number } | string {
  const width = body['width'];
  const height = body['height'];
  if (width !== undefined || height !== undefined) {
    if (!isPositiveInteger(width) || !isPositiveInteger(height))
      return 'width and height must be given together';
    if (!areaInRange(width * height)) return `width × height must be between ${MIN_AREA} and ${MAX_AREA}`;
    if (width > height * MAX_ASPECT || height > width * MAX_ASPECT)
      return 'aspect ratio must be within 1:16 and 16:1';
    return { width, height };
  }
  const size = body['size'] ?? DEFAULT_AREA;
  if (!isPositiveInteger(size) || !areaInRange(size))
    return `size must be an area between ${MIN_AREA} and ${MAX_AREA}`;
  const side = Math.round(Math.sqrt(size));
  return { width: side, height: side };
}

function optionalFieldsRefusal(body: Record<string, unknown>): string | undefined {
  const scale = body['scale'];
  if (scale !== undefined && (typeof scale !== 'number' || scale < 0 || scale > 1))
    return 'scale must be between 0 and 1';
  if (body['force_single'] !== undefined && typeof body['force_single'] !== 'boolean')
    return 'force_single must be a boolean';
  const seed = body['seed'];
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed)))
    return 'seed must be an integer';
  for (const bound of ['min_ratio', 'max_ratio']) {
    if (body[bound] !== undefined && typeof body[bound] !== 'number') return `${bound} must be a number`;
  }
  return undefined;
}

/** A validated result query (upstreams.md §4.4). */
export interface BetaResultQuery {
  reqKey: string;
  taskId: string;
  returnUrl: boolean;
  /** `aigc_meta` was given: the answer says the result was tagged. */
  aigcMeta: boolean;
}

export type BetaQueryResult = { query: BetaResultQuery } | { refusal: string };

export function toBetaResultQuery(body: Record<string, unknown>): BetaQueryResult {
  const reqKey = body['req_key'];
  const taskId = body['task_id'];
  if (typeof reqKey !== 'string' || reqKey === '') return { refusal: 'req_key is required' };
  if (typeof taskId !== 'string' || taskId === '') return { refusal: 'task_id is required' };
  const reqJson = body['req_json'];
  if (reqJson === undefined) return { query: { reqKey, taskId, returnUrl: false, aigcMeta: false } };
  // req_json is a JSON-encoded string, not an object (§4.4).
  if (typeof reqJson !== 'string') return { refusal: 'req_json must be a JSON-encoded string' };
  const options = parseJsonObject(reqJson);
  if (!options) return { refusal: 'req_json must encode a JSON object' };
  const returnUrl = options['return_url'];
  if (returnUrl !== undefined && typeof returnUrl !== 'boolean')
    return { refusal: 'return_url must be a boolean' };
  const logoInfo = options['logo_info'];
  if (
    logoInfo !== undefined &&
    (!isRecord(logoInfo) || (logoInfo['add_logo'] !== undefined && typeof logoInfo['add_logo'] !== 'boolean'))
  ) {
    return { refusal: 'logo_info must be an object whose add_logo is a boolean' };
  }
  if (options['aigc_meta'] !== undefined && !isRecord(options['aigc_meta']))
    return { refusal: 'aigc_meta must be an object' };
  return {
    query: { reqKey, taskId, returnUrl: returnUrl === true, aigcMeta: options['aigc_meta'] !== undefined },
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function areaInRange(area: number): boolean {
  return area >= MIN_AREA && area <= MAX_AREA;
}
