/** The price dimension one word of a combined billing model name sets. */
export interface BillingNameToken {
  dimension: string;
  value: string;
}

const resolution = (value: string): BillingNameToken => ({ dimension: 'resolution', value });

/**
 * The words a combined billing model name may carry after its base model (gateway interface, "Video
 * task request": `gamma-2.6-motion-pro-1080p`, `alpha-q2-pro-reference-1080p-offpeak`,
 * `gamma-3.0-omni-1080p-ref-audio`), each with the dimension it prices. Data, not code: a new word is
 * a new entry here. Looked up in lower case.
 */
export const BILLING_NAME_TOKENS: ReadonlyMap<string, BillingNameToken> = new Map([
  ['480p', resolution('480p')],
  ['540p', resolution('540p')],
  ['720p', resolution('720p')],
  ['1080p', resolution('1080p')],
  ['2k', resolution('2k')],
  ['4k', resolution('4k')],
  ['offpeak', { dimension: 'offpeak', value: 'true' }],
  ['audio', { dimension: 'audio', value: 'true' }],
  // The keys the families' rules read (gamma: scene_type, motion_level, ref; libs/providers/gamma README).
  ['ref', { dimension: 'ref', value: 'true' }],
  ['reference', { dimension: 'ref', value: 'true' }],
  ['motion', { dimension: 'scene_type', value: 'motion_control' }],
  ['avatar', { dimension: 'scene_type', value: 'avatar_i2v' }],
  ['pro', { dimension: 'motion_level', value: 'pro' }],
  ['std', { dimension: 'motion_level', value: 'std' }],
]);
