/** Wire protocols a channel can speak. A channel type is code; a channel is a database row naming one. */
export const CHANNEL_TYPES = [
  'kappa',
  'compat',
  'alpha',
  'beta',
  'gamma',
  'eta',
  'mu',
  'omega',
  'lambda',
] as const;

export type ChannelType = (typeof CHANNEL_TYPES)[number];

export function isChannelType(value: string): value is ChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(value);
}
