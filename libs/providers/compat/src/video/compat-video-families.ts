/**
 * The video families of the OpenAI-style videos wire (upstreams.md §2.4, §10) as data. The price tier
 * of a size is its resolution, lower case:
 *
 * | Size                                  | Tier    |
 * | ------------------------------------- | ------- |
 * | `1280x720`, `720x1280`, zeta `720P`   | `720p`  |
 * | `1792x1024`, `1024x1792` (delta pro)  | `1024p` |
 * | `1920x1080`, zeta `1080P`             | `1080p` |
 * | `3840x2160`                           | `4k`    |
 *
 * `nu-*` and `xi-*` are open: see `tierOfOpenSize`.
 */
export type CompatVideoKind = 'delta' | 'epsilon' | 'zeta' | 'open';

export type VideoOrientation = 'landscape' | 'portrait';

/** A size the wire takes, with its price tier and the frame it makes. */
export interface CompatVideoSize {
  wire: string;
  tier: string;
  orientation: VideoOrientation | 'any';
}

/**
 * How the family's images travel: `delta` one image, as `input_reference: {image_url}` in JSON when it
 * is a URL, as an uploaded file when the task row holds its bytes; `epsilon`/`open` JSON `images[]`
 * (URLs or data: URIs, the relay form); `zeta` uploaded `input_reference` files only (create is
 * multipart), so an image URL cannot be sent.
 */
export type CompatImageTransport = 'delta' | 'json-images' | 'upload';

export interface CompatVideoFamily {
  name: string;
  kind: CompatVideoKind;
  /** Allowed seconds; `any` is a positive integer. */
  seconds: readonly number[] | 'any';
  defaultSeconds: number;
  /** Fixed-duration models: the wire makes this whatever is asked; billed as such. */
  fixedSeconds?: number;
  /** `8` is required at these tiers, with images (reference mode), and always for extensions. */
  eightSecondsAt?: { tiers: readonly string[]; withImages: boolean; always: boolean };
  /** Sizes in the wire's spelling; `any` passes the client's size on (open families). */
  sizes: readonly CompatVideoSize[] | 'any';
  defaultSize: string | null;
  aspectRatios?: readonly string[];
  maxImages: number;
  imageTransport: CompatImageTransport;
  remix: boolean;
  /** Whether `metadata` goes to the wire (relays keep it); the first-party delta wire has no field. */
  sendsMetadata: boolean;
}

const size = (wire: string, tier: string, orientation: CompatVideoSize['orientation']): CompatVideoSize => ({
  wire,
  tier,
  orientation,
});

const DELTA_SIZES = [size('720x1280', '720p', 'portrait'), size('1280x720', '720p', 'landscape')];

const DELTA = {
  kind: 'delta',
  seconds: [4, 8, 12],
  defaultSeconds: 4,
  defaultSize: '720x1280',
  maxImages: 1,
  imageTransport: 'delta',
  remix: true,
  sendsMetadata: false,
} as const;

const EPSILON = {
  kind: 'epsilon',
  seconds: [4, 6, 8],
  defaultSeconds: 4,
  eightSecondsAt: { tiers: ['1080p', '4k'], withImages: true, always: false },
  sizes: [
    size('1280x720', '720p', 'landscape'),
    size('720x1280', '720p', 'portrait'),
    size('1920x1080', '1080p', 'landscape'),
    size('3840x2160', '4k', 'landscape'),
  ],
  defaultSize: '1280x720',
  maxImages: 10,
  imageTransport: 'json-images',
  remix: false,
  sendsMetadata: true,
} as const;

const ZETA = {
  kind: 'zeta',
  seconds: [6, 10, 15],
  defaultSeconds: 6,
  sizes: [size('720P', '720p', 'any'), size('1080P', '1080p', 'any')],
  defaultSize: '720P',
  aspectRatios: ['2:3', '3:2', '1:1'],
  maxImages: 6,
  imageTransport: 'upload',
  remix: false,
  sendsMetadata: true,
} as const;

/** Permissive: the relay decides; every value passes as sent (interface defaults where none is given). */
const OPEN = {
  kind: 'open',
  seconds: 'any',
  defaultSeconds: 5,
  sizes: 'any',
  defaultSize: null,
  maxImages: 16,
  imageTransport: 'json-images',
  remix: false,
  sendsMetadata: true,
} as const;

const FAMILIES: Readonly<Record<string, CompatVideoFamily>> = {
  'delta-2': { ...DELTA, name: 'delta-2', sizes: DELTA_SIZES },
  'delta-2-pro': {
    ...DELTA,
    name: 'delta-2-pro',
    sizes: [...DELTA_SIZES, size('1024x1792', '1024p', 'portrait'), size('1792x1024', '1024p', 'landscape')],
  },
  epsilon_3_1: { ...EPSILON, name: 'epsilon_3_1' },
  'epsilon_3_1-fast': { ...EPSILON, name: 'epsilon_3_1-fast' },
  // Extensions (remix) are 720p, 16:9 or 9:16, and 8 s; a plain create on it follows the same rules.
  'epsilon_3_1-extend': {
    ...EPSILON,
    name: 'epsilon_3_1-extend',
    seconds: [8],
    defaultSeconds: 8,
    eightSecondsAt: { tiers: [], withImages: true, always: true },
    sizes: [size('1280x720', '720p', 'landscape'), size('720x1280', '720p', 'portrait')],
    remix: true,
  },
  'zeta-video-3': { ...ZETA, name: 'zeta-video-3' },
  'zeta-video-3-pro': { ...ZETA, name: 'zeta-video-3-pro', defaultSeconds: 10, fixedSeconds: 10 },
  'zeta-video-3-max': { ...ZETA, name: 'zeta-video-3-max', defaultSeconds: 15, fixedSeconds: 15 },
};

/** `nu-*` and `xi-*` (upstreams.md §10), by their prefix; the call names the family `nu` or `xi`. */
const OPEN_FAMILIES: Readonly<Record<string, CompatVideoFamily>> = {
  nu: { ...OPEN, name: 'nu' },
  xi: { ...OPEN, name: 'xi' },
};

/** The family of a base model name; undefined for a model these rules do not serve. */
export function compatVideoFamilyOf(model: string): CompatVideoFamily | undefined {
  if (Object.hasOwn(FAMILIES, model)) return FAMILIES[model];
  const dash = model.indexOf('-');
  const prefix = model.slice(0, dash);
  return dash > 0 && dash < model.length - 1 && Object.hasOwn(OPEN_FAMILIES, prefix)
    ? OPEN_FAMILIES[prefix]
    : undefined;
}

/** The family a planned call names (`VideoCall.family`). */
export function compatVideoFamilyNamed(name: string): CompatVideoFamily | undefined {
  if (Object.hasOwn(FAMILIES, name)) return FAMILIES[name];
  return Object.hasOwn(OPEN_FAMILIES, name) ? OPEN_FAMILIES[name] : undefined;
}

/** The families whose wire has remix, for the refusal that names them. */
export const REMIX_FAMILIES: readonly string[] = Object.values(FAMILIES)
  .filter((family) => family.remix)
  .map((family) => family.name);

const PIXELS = /^(\d{2,5})x(\d{2,5})$/i;
const RESOLUTION_WORD = /^(\d{3,4})p$/i;

/**
 * The price tier of an open family's size: `WxH` by its short side (≤ 480 `480p`, ≤ 720 `720p`,
 * ≤ 1080 `1080p`, ≤ 1440 `1440p`, above `4k`); a word such as `720P` or `4K` lower-cased; anything
 * else (or no size) null, priced at the model's `default` tier.
 */
export function tierOfOpenSize(value: string | undefined): string | null {
  if (value === undefined) return null;
  const pixels = PIXELS.exec(value);
  if (pixels) return tierOfShortSide(Math.min(Number(pixels[1]), Number(pixels[2])));
  if (RESOLUTION_WORD.test(value) || /^[48]k$/i.test(value)) return value.toLowerCase();
  return null;
}

function tierOfShortSide(side: number): string {
  if (side <= 480) return '480p';
  if (side <= 720) return '720p';
  if (side <= 1080) return '1080p';
  if (side <= 1440) return '1440p';
  return '4k';
}
