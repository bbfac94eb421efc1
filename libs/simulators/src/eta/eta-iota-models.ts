/** The per-model limits of iota images (upstreams.md §6.3). */
export interface IotaModelRules {
  maxReferences: number;
  sizeKeywords: readonly string[];
  minArea: number;
}

const MAX_AREA = 16_777_216;
const MAX_ASPECT = 16;
const DEFAULT_SIZE = { width: 2048, height: 2048 };
/** Keywords give square images; the real service may pick another ratio from the prompt. */
const KEYWORD_SIDES: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

const LATER_MODELS: IotaModelRules = { maxReferences: 14, sizeKeywords: ['2K', '4K'], minArea: 3_686_400 };

const RULES: Record<string, IotaModelRules> = {
  'eta-iota-4-0-250828': { maxReferences: 10, sizeKeywords: ['1K', '2K', '4K'], minArea: 921_600 },
  'eta-iota-4-5-251128': LATER_MODELS,
  'eta-iota-5-0-260128': LATER_MODELS,
};

export function iotaRulesOf(model: string): IotaModelRules | undefined {
  return Object.hasOwn(RULES, model) ? RULES[model] : undefined;
}

export type IotaSizeResult = { width: number; height: number } | { refusal: string };

const SIZE_PATTERN = /^(\d{1,5})x(\d{1,5})$/;

/** `size` as a keyword or `WxH` within the model's area range and 1:16 … 16:1; absent: 2048x2048. */
export function resolveIotaSize(rules: IotaModelRules, size: string | undefined): IotaSizeResult {
  if (size === undefined) return DEFAULT_SIZE;
  if (Object.hasOwn(KEYWORD_SIDES, size)) {
    if (!rules.sizeKeywords.includes(size)) {
      return {
        refusal: `size ${size} is not supported by this model; use ${rules.sizeKeywords.join(' or ')}.`,
      };
    }
    return { width: KEYWORD_SIDES[size], height: KEYWORD_SIDES[size] };
  }
  const match = SIZE_PATTERN.exec(size);
  if (!match) return { refusal: `size must be one of ${rules.sizeKeywords.join(', ')} or WIDTHxHEIGHT.` };
  const width = Number(match[1]);
  const height = Number(match[2]);
  const area = width * height;
  if (area < rules.minArea || area > MAX_AREA) {
    return { refusal: `the image area must be between ${rules.minArea} and ${MAX_AREA} pixels.` };
  }
  if (width > height * MAX_ASPECT || height > width * MAX_ASPECT) {
    return { refusal: 'the aspect ratio must be between 1:16 and 16:1.' };
  }
  return { width, height };
}
