const MASK = '••••';

/** How a channel secret is shown: a mask and its last characters, never the secret itself. */
export function toMaskedSecret(secretTail: string): string {
  return `${MASK}${secretTail}`;
}
