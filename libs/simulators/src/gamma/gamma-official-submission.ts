import { isBase64 } from '../uploaded-image.util';
import { isRecord } from '../sample-arguments.util';

/** The endpoints of upstreams.md §5.8. */
export const GAMMA_OFFICIAL_ENDPOINTS = ['text2video', 'image2video', 'omni-video'] as const;
export type GammaOfficialEndpoint = (typeof GAMMA_OFFICIAL_ENDPOINTS)[number];

/** What a §5.8 create asked for, as the simulator keeps it. */
export interface GammaOfficialSubmission {
  endpoint: GammaOfficialEndpoint;
  modelName: string;
  duration: number;
  externalTaskId: string;
}

type Checked<T> = { value: T } | { refusal: { code: number; message: string } };

/** Model names and whether each takes `sound` (2.6 and later). */
const MODELS: Readonly<Record<string, { sound: boolean }>> = {
  'gamma-v2-5-turbo': { sound: false },
  'gamma-v2-6': { sound: true },
  'gamma-v3-omni': { sound: true },
};
const DURATIONS = ['5', '10'];
const OMNI_SECONDS = { min: 3, max: 15 };
const ASPECT_RATIOS = ['16:9', '9:16', '1:1'];
const MAX_PROMPT = 2500;
const HTTP_URL = /^https?:\/\/\S+$/i;
/** Raw Base64, no `data:` prefix (§5.8). */

/** The fields each endpoint takes, besides those all take (§5.8). */
const ENDPOINT_FIELDS: Readonly<Record<GammaOfficialEndpoint, readonly string[]>> = {
  text2video: ['aspect_ratio', 'cfg_scale', 'camera_control', 'static_mask', 'dynamic_masks'],
  image2video: ['image', 'image_tail', 'cfg_scale', 'camera_control', 'static_mask', 'dynamic_masks'],
  'omni-video': [
    'aspect_ratio',
    'image_list',
    'video_list',
    'element_list',
    'multi_shot',
    'shot_type',
    'multi_prompt',
  ],
};
const COMMON_FIELDS = [
  'model_name',
  'prompt',
  'negative_prompt',
  'mode',
  'duration',
  'sound',
  'watermark_info',
  'callback_url',
  'external_task_id',
];

/** Checks a create body as the wire does; the first rule broken is the refusal (1201), naming the field. */
export function toGammaOfficialSubmission(
  endpoint: GammaOfficialEndpoint,
  body: Record<string, unknown>,
): Checked<GammaOfficialSubmission> {
  const known = new Set([...COMMON_FIELDS, ...ENDPOINT_FIELDS[endpoint]]);
  const unknown = Object.keys(body).find((key) => !known.has(key));
  if (unknown !== undefined) return invalid(`${unknown} is not a parameter of ${endpoint}`);
  const modelName = body['model_name'];
  if (typeof modelName !== 'string' || !Object.hasOwn(MODELS, modelName)) {
    return invalid(`model_name must be one of ${Object.keys(MODELS).join(', ')}`);
  }
  for (const field of ['prompt', 'negative_prompt']) {
    const text = body[field];
    if (text !== undefined && (typeof text !== 'string' || text.length > MAX_PROMPT)) {
      return invalid(`${field} must be a string of at most ${MAX_PROMPT} characters`);
    }
  }
  if (endpoint === 'text2video' && !(typeof body['prompt'] === 'string' && body['prompt'] !== '')) {
    return invalid('prompt is required on text2video');
  }
  const checks = [
    oneOf(body, 'mode', ['std', 'pro']),
    oneOf(body, 'aspect_ratio', ASPECT_RATIOS),
    oneOf(body, 'sound', ['on', 'off']),
    body['sound'] !== undefined && !MODELS[modelName].sound
      ? `sound is not offered by ${modelName}`
      : undefined,
    body['cfg_scale'] !== undefined && !isUnitNumber(body['cfg_scale'])
      ? 'cfg_scale must be from 0 to 1'
      : undefined,
    endpoint === 'image2video' ? imageProblem(body) : undefined,
    endpoint === 'omni-video' ? listsProblem(body) : undefined,
    body['external_task_id'] !== undefined && typeof body['external_task_id'] !== 'string'
      ? 'external_task_id must be a string'
      : undefined,
  ];
  const problem = checks.find((found) => found !== undefined);
  if (problem !== undefined) return invalid(problem);
  const duration = durationOf(endpoint, body['duration']);
  if ('refusal' in duration) return duration;
  return {
    value: {
      endpoint,
      modelName,
      duration: duration.value,
      externalTaskId: typeof body['external_task_id'] === 'string' ? body['external_task_id'] : '',
    },
  };
}

/** `"5"` or `"10"`; omni-video any whole second from 3 to 15; 5 when absent. */
function durationOf(endpoint: GammaOfficialEndpoint, value: unknown): Checked<number> {
  if (value === undefined) return { value: 5 };
  const seconds = typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : NaN;
  const allowed =
    endpoint === 'omni-video'
      ? seconds >= OMNI_SECONDS.min && seconds <= OMNI_SECONDS.max
      : DURATIONS.includes(value as string);
  if (!allowed) {
    return invalid(
      endpoint === 'omni-video'
        ? `duration must be a string of ${OMNI_SECONDS.min} to ${OMNI_SECONDS.max} seconds`
        : `duration must be one of "${DURATIONS.join('", "')}"`,
    );
  }
  return { value: seconds };
}

function imageProblem(body: Record<string, unknown>): string | undefined {
  if (body['image'] === undefined) return 'image is required on image2video';
  for (const field of ['image', 'image_tail']) {
    const value = body[field];
    if (value !== undefined && !(typeof value === 'string' && (HTTP_URL.test(value) || isBase64(value)))) {
      return `${field} must be a URL or raw Base64 without a data: prefix`;
    }
  }
  return undefined;
}

function listsProblem(body: Record<string, unknown>): string | undefined {
  const images = body['image_list'] ?? [];
  if (!Array.isArray(images)) return 'image_list must be an array';
  for (const [index, item] of images.entries()) {
    if (!isRecord(item) || typeof item['image_url'] !== 'string' || item['image_url'] === '') {
      return `image_list[${index}].image_url is required`;
    }
    if (item['type'] !== undefined && item['type'] !== 'first_frame' && item['type'] !== 'end_frame') {
      return `image_list[${index}].type must be first_frame or end_frame`;
    }
  }
  const videos = body['video_list'] ?? [];
  if (!Array.isArray(videos)) return 'video_list must be an array';
  for (const [index, item] of videos.entries()) {
    if (!isRecord(item) || typeof item['video_url'] !== 'string' || !HTTP_URL.test(item['video_url'])) {
      return `video_list[${index}].video_url must be an http(s) URL`;
    }
    const referType = item['refer_type'];
    if (referType !== undefined && referType !== 'feature' && referType !== 'base') {
      return `video_list[${index}].refer_type must be feature or base`;
    }
  }
  return undefined;
}

function oneOf(body: Record<string, unknown>, field: string, allowed: readonly string[]): string | undefined {
  const value = body[field];
  return value === undefined || allowed.includes(value as string)
    ? undefined
    : `${field} must be one of ${allowed.join(', ')}`;
}

function isUnitNumber(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

function invalid(message: string): { refusal: { code: number; message: string } } {
  return { refusal: { code: 1201, message } };
}
