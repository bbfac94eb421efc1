import { solidImage } from '../image-bytes.util';

/** Output size at `1K` per aspect ratio; `2K` and `4K` scale both sides by 2 and 4. */
const DIMENSIONS_AT_1K: Record<string, readonly [number, number]> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};
const SIZE_SCALE: Record<string, number> = { '1K': 1, '2K': 2, '4K': 4 };

/** The model that ignores `imageSize` and bills a flat 1290 tokens per image (upstreams.md §1.3, §1.5). */
const FIXED_SIZE_MODEL = 'kappa-2.5-flash-image-preview';
const FIXED_SIZE_IMAGE_TOKENS = 1290;
const IMAGE_TOKENS_UP_TO_2K = 1120;
const IMAGE_TOKENS_AT_4K = 2000;

export interface KappaImageConfig {
  aspectRatio?: string;
  imageSize?: string;
}

export interface KappaImageOutput {
  mimeType: 'image/png';
  data: string;
  tokens: number;
}

/** Why an image config is refused, or undefined when the upstream would accept it. */
export function invalidImageConfigReason(model: string, config: KappaImageConfig): string | undefined {
  if (config.aspectRatio !== undefined && !Object.hasOwn(DIMENSIONS_AT_1K, config.aspectRatio)) {
    return `Unsupported aspect ratio: ${config.aspectRatio}.`;
  }
  if (
    model !== FIXED_SIZE_MODEL &&
    config.imageSize !== undefined &&
    !Object.hasOwn(SIZE_SCALE, config.imageSize)
  ) {
    return `Unsupported image size: ${config.imageSize}. Use 1K, 2K or 4K.`;
  }
  return undefined;
}

export function toKappaImageOutput(model: string, config: KappaImageConfig): KappaImageOutput {
  const size = model === FIXED_SIZE_MODEL ? '1K' : (config.imageSize ?? '1K');
  const [width, height] = DIMENSIONS_AT_1K[config.aspectRatio ?? '1:1'];
  const scale = SIZE_SCALE[size] ?? 1;
  return {
    mimeType: 'image/png',
    data: solidImage('png', width * scale, height * scale).base64,
    tokens: imageTokensOf(model, size),
  };
}

function imageTokensOf(model: string, size: string): number {
  if (model === FIXED_SIZE_MODEL) return FIXED_SIZE_IMAGE_TOKENS;
  return size === '4K' ? IMAGE_TOKENS_AT_4K : IMAGE_TOKENS_UP_TO_2K;
}
