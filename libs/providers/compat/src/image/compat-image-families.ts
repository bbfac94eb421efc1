import { IMG_2_PRESETS, IMG_2_PRO_PRESETS, type ImageSizePresets } from './img-2-size.util';

/** The image families the OpenAI-style wire carries (upstreams.md §2.3), by their public model name. */
export type CompatImageFamilyName = 'img-1' | 'img-2' | 'img-2-pro' | 'draw-2' | 'draw-3' | 'zeta-4-2-image';

/**
 * How a family reads `size`: a closed list; the `img-2` arithmetic rule with its presets (a target
 * the rule refuses falls back to the closest valid size); or aspect ratios mapped to pixels.
 */
export type CompatSizeRule =
  | { kind: 'list'; sizes: readonly string[]; defaultSize?: string }
  | { kind: 'img-2'; presets: ImageSizePresets }
  | { kind: 'ratio' };

/** Fields that only some families' wires have; the plan drops them elsewhere, with a warning. */
export type CompatOptionalField = 'style' | 'background' | 'quality';

export interface CompatImageFamily {
  name: CompatImageFamilyName;
  /** Absent: no bound on the wire (the prompt is only required). */
  promptMaxLength?: number;
  /** Absent: any `n` of at least 1. */
  maxImages?: number;
  size: CompatSizeRule;
  qualities?: readonly string[];
  defaultQuality?: string;
  /** The optional fields the family's wire takes; the others are dropped. */
  fields: ReadonlySet<CompatOptionalField>;
  /** `img-*` answer Base64 only and refuse the field with a 400, so it is never sent to them. */
  takesResponseFormat: boolean;
  /** Base64 reference images in the generations body's `image` array. */
  takesReferenceImages: boolean;
  /** Which upload rules the edits route applies; absent: the family has no edits. */
  edits?: 'img' | 'draw-2';
}

const IMG_QUALITIES = ['low', 'medium', 'high', 'auto'];

/** `1024x1024` is the draw wires' own default; it is sent explicitly so the price tier is the size made. */
const DRAW_DEFAULT_SIZE = '1024x1024';

const IMG_COMMON = {
  promptMaxLength: 32_000,
  maxImages: 10,
  qualities: IMG_QUALITIES,
  defaultQuality: 'auto',
  // `img-2` accepts `background` and may ignore it (upstreams.md §2.3 †): it is still the wire's field.
  fields: new Set<CompatOptionalField>(['background', 'quality']),
  takesResponseFormat: false,
  edits: 'img',
} as const;

const FAMILIES: Record<CompatImageFamilyName, CompatImageFamily> = {
  'img-1': {
    ...IMG_COMMON,
    name: 'img-1',
    size: { kind: 'list', sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'] },
    takesReferenceImages: false,
  },
  'img-2': {
    ...IMG_COMMON,
    name: 'img-2',
    size: { kind: 'img-2', presets: IMG_2_PRESETS },
    takesReferenceImages: true,
  },
  'img-2-pro': {
    ...IMG_COMMON,
    name: 'img-2-pro',
    size: { kind: 'img-2', presets: IMG_2_PRO_PRESETS },
    takesReferenceImages: true,
  },
  'draw-2': {
    name: 'draw-2',
    promptMaxLength: 1000,
    maxImages: 10,
    size: { kind: 'list', sizes: ['256x256', '512x512', '1024x1024'], defaultSize: DRAW_DEFAULT_SIZE },
    fields: new Set(),
    takesResponseFormat: true,
    takesReferenceImages: false,
    edits: 'draw-2',
  },
  'draw-3': {
    name: 'draw-3',
    promptMaxLength: 4000,
    maxImages: 1,
    size: { kind: 'list', sizes: ['1024x1024', '1024x1792', '1792x1024'], defaultSize: DRAW_DEFAULT_SIZE },
    qualities: ['standard', 'hd'],
    defaultQuality: 'standard',
    fields: new Set(['style', 'quality']),
    takesResponseFormat: true,
    takesReferenceImages: false,
  },
  'zeta-4-2-image': {
    name: 'zeta-4-2-image',
    size: { kind: 'ratio' },
    fields: new Set(),
    takesResponseFormat: true,
    takesReferenceImages: true,
  },
};

/** The family of a public model name; undefined for a model these rules do not know. */
export function compatImageFamilyOf(model: string | undefined): CompatImageFamily | undefined {
  return model !== undefined && Object.hasOwn(FAMILIES, model)
    ? FAMILIES[model as CompatImageFamilyName]
    : undefined;
}
