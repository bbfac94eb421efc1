/**
 * The per-family rules of the OpenAI-style image API (upstreams.md §2.3) as data. Model ids outside
 * the table are a relay's own names and follow the relay rules of `zeta-4-2-image`; ids starting
 * `unknown-` are refused with 404, as on chat completions.
 */
export type CompatImageFamily = 'draw-3' | 'draw-2' | 'img-1' | 'img-2' | 'relay';

export interface CompatImageRules {
  family: CompatImageFamily;
  /** Absent: no limit on the wire. */
  promptMaxLength?: number;
  maxImages: number;
  /** A closed list, the `img-2` arithmetic rule, or any `WxH` (relays). */
  sizes: readonly string[] | 'img-2' | 'any';
  qualities?: readonly string[];
  defaultQuality?: string;
  styles?: readonly string[];
  /** Absent: `response_format` is refused (`img-*` answer Base64 only). */
  responseFormats?: readonly string[];
  /** Validated values of `background`; `ignored` accepts anything. */
  backgrounds?: readonly string[] | 'ignored';
  /** `output_format`, `output_compression`, `moderation`, `input_fidelity` and the detailed answer. */
  imageOptions: boolean;
  revisesPrompt: boolean;
  /** Base64 reference images in the JSON `image` field. */
  acceptsReferenceImages: boolean;
  /** Which edit rules apply; absent: no edits. */
  edits?: 'img' | 'draw-2';
  urlLifetimeSeconds: number;
}

const URL_FORMATS = ['url', 'b64_json'] as const;
const IMG_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
/** Relay URL lifetime is relay-defined; a day is this simulator's choice. */
const RELAY_URL_LIFETIME_SECONDS = 24 * 3600;
const DRAW_URL_LIFETIME_SECONDS = 60 * 60;
const RELAY_MAX_IMAGES = 128;

const IMG_COMMON = {
  promptMaxLength: 32_000,
  maxImages: 10,
  qualities: IMG_QUALITIES,
  defaultQuality: 'auto',
  imageOptions: true,
  revisesPrompt: false,
  acceptsReferenceImages: false,
  edits: 'img',
  urlLifetimeSeconds: 0,
} as const;

const IMG_2: CompatImageRules = {
  ...IMG_COMMON,
  family: 'img-2',
  sizes: 'img-2',
  backgrounds: 'ignored',
  acceptsReferenceImages: true,
};

const RULES: Record<string, CompatImageRules> = {
  'draw-3': {
    family: 'draw-3',
    promptMaxLength: 4000,
    maxImages: 1,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    qualities: ['standard', 'hd'],
    defaultQuality: 'standard',
    styles: ['vivid', 'natural'],
    responseFormats: URL_FORMATS,
    imageOptions: false,
    revisesPrompt: true,
    acceptsReferenceImages: false,
    urlLifetimeSeconds: DRAW_URL_LIFETIME_SECONDS,
  },
  'draw-2': {
    family: 'draw-2',
    promptMaxLength: 1000,
    maxImages: 10,
    sizes: ['256x256', '512x512', '1024x1024'],
    responseFormats: URL_FORMATS,
    imageOptions: false,
    revisesPrompt: false,
    acceptsReferenceImages: false,
    edits: 'draw-2',
    urlLifetimeSeconds: DRAW_URL_LIFETIME_SECONDS,
  },
  'img-1': {
    ...IMG_COMMON,
    family: 'img-1',
    sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
    backgrounds: ['transparent', 'opaque', 'auto'],
  },
  'img-2': IMG_2,
  'img-2-pro': IMG_2,
};

const RELAY: CompatImageRules = {
  family: 'relay',
  maxImages: RELAY_MAX_IMAGES,
  sizes: 'any',
  responseFormats: URL_FORMATS,
  imageOptions: false,
  revisesPrompt: false,
  acceptsReferenceImages: true,
  urlLifetimeSeconds: RELAY_URL_LIFETIME_SECONDS,
};

const UNKNOWN_MODEL_PREFIX = 'unknown-';

/** The rules of a model id, or undefined for the `unknown-` ids that play an unknown model. */
export function compatImageRulesOf(model: string): CompatImageRules | undefined {
  if (model.startsWith(UNKNOWN_MODEL_PREFIX)) return undefined;
  return Object.hasOwn(RULES, model) ? RULES[model] : RELAY;
}

/** What a `size` value produces, or why the family refuses it. */
export type CompatSizeResult = { width: number; height: number } | { refusal: string };

const AUTO_SIZE = { width: 1024, height: 1024 };
const SIZE_PATTERN = /^(\d{1,5})x(\d{1,5})$/;
const IMG_2_SIDE_MULTIPLE = 16;
const IMG_2_LONG_SIDE_MAX = 3840;
const IMG_2_RATIO_MAX = 3;
const IMG_2_AREA_MIN = 655_360;
const IMG_2_AREA_MAX = 8_294_400;
/** Relays define their own sizes; this bound only keeps generated files reasonable. */
const RELAY_SIDE_MAX = 4096;

/** Resolves `size` (absent: the family default, 1024x1024; `auto` also gives 1024x1024). */
export function resolveCompatSize(rules: CompatImageRules, size: string | undefined): CompatSizeResult {
  if (size === undefined || size === 'auto') {
    if (size === 'auto' && Array.isArray(rules.sizes) && !rules.sizes.includes('auto')) {
      return { refusal: unsupportedValueMessage(size, rules.sizes) };
    }
    return AUTO_SIZE;
  }
  const match = SIZE_PATTERN.exec(size);
  if (Array.isArray(rules.sizes)) {
    return rules.sizes.includes(size) && match
      ? { width: Number(match[1]), height: Number(match[2]) }
      : { refusal: unsupportedValueMessage(size, rules.sizes) };
  }
  if (!match) return { refusal: `Invalid size '${size}'. Use 'auto' or WIDTHxHEIGHT.` };
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (rules.sizes === 'any') {
    return width >= 1 && height >= 1 && width <= RELAY_SIDE_MAX && height <= RELAY_SIDE_MAX
      ? { width, height }
      : { refusal: `Invalid size '${size}'. Both sides must be between 1 and ${RELAY_SIDE_MAX}.` };
  }
  const refusal = img2SizeRefusal(width, height);
  return refusal ? { refusal: `Invalid size '${size}'. ${refusal}` } : { width, height };
}

function img2SizeRefusal(width: number, height: number): string | undefined {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const area = width * height;
  if (width % IMG_2_SIDE_MULTIPLE !== 0 || height % IMG_2_SIDE_MULTIPLE !== 0) {
    return `Both sides must be multiples of ${IMG_2_SIDE_MULTIPLE}.`;
  }
  if (long > IMG_2_LONG_SIDE_MAX) return `The long side must be at most ${IMG_2_LONG_SIDE_MAX} pixels.`;
  if (long > short * IMG_2_RATIO_MAX)
    return 'The ratio of the long side to the short side must be at most 3:1.';
  if (area < IMG_2_AREA_MIN || area > IMG_2_AREA_MAX) {
    return `The total number of pixels must be between ${IMG_2_AREA_MIN} and ${IMG_2_AREA_MAX}.`;
  }
  return undefined;
}

/** `Invalid value: 'x'. Supported values are: 'a', 'b', and 'c'.`, the wire's wording. */
export function unsupportedValueMessage(value: string, supported: readonly string[]): string {
  const quoted = supported.map((item) => `'${item}'`);
  const list =
    quoted.length <= 2 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
  return `Invalid value: '${value}'. Supported values are: ${list}.`;
}
