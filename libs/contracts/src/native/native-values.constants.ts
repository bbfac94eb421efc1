/** Value sets of the native generation request (gateway-interface.md, upstreams.md §1.3). */

export const CONTENT_ROLES = ['user', 'model'] as const;
export type ContentRole = (typeof CONTENT_ROLES)[number];

/** The kinds of a part; a part carries exactly one. */
export const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

export const RESPONSE_MODALITIES = ['TEXT', 'IMAGE', 'AUDIO'] as const;
export type ResponseModality = (typeof RESPONSE_MODALITIES)[number];

export const IMAGE_ASPECT_RATIOS = [
  '1:1',
  '2:3',
  '3:2',
  '3:4',
  '4:3',
  '4:5',
  '5:4',
  '9:16',
  '16:9',
  '21:9',
] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];

/** Every tier the wire knows; which tiers a model honours is decided later, per model. */
export const IMAGE_SIZES = ['1K', '2K', '4K'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const HARM_CATEGORIES = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
] as const;
export type HarmCategory = (typeof HARM_CATEGORIES)[number];

export const HARM_BLOCK_THRESHOLDS = [
  'BLOCK_NONE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_LOW_AND_ABOVE',
  'OFF',
] as const;
export type HarmBlockThreshold = (typeof HARM_BLOCK_THRESHOLDS)[number];

export const FUNCTION_CALLING_MODES = ['AUTO', 'ANY', 'NONE'] as const;
export type FunctionCallingMode = (typeof FUNCTION_CALLING_MODES)[number];
