import { BILLING_NAME_TOKENS, type BillingNameToken } from './billing-name-tokens';

/** A model name as routing and pricing read it: the base model channels offer, and the price dimensions the name added. */
export interface ResolvedModelName {
  base: string;
  dimensions: Readonly<Record<string, string>>;
}

const WORD_SEPARATOR = '-';

/**
 * Reads a combined billing model name (`gamma-2.6-motion-pro-1080p`): the longest prefix, cut at a
 * `-`, that is a known model is the base (`gamma-2.6`), and every word after it must be a billing
 * word (`motion`, `pro`, `1080p`), each setting one dimension at most once. A known model is its own
 * base. Undefined when the name is neither: no such model.
 */
export function resolveModelName(
  name: string,
  isKnownModel: (model: string) => boolean,
  tokens: ReadonlyMap<string, BillingNameToken> = BILLING_NAME_TOKENS,
): ResolvedModelName | undefined {
  if (isKnownModel(name)) return { base: name, dimensions: {} };
  for (let cut = name.lastIndexOf(WORD_SEPARATOR); cut > 0; cut = name.lastIndexOf(WORD_SEPARATOR, cut - 1)) {
    const base = name.slice(0, cut);
    if (!isKnownModel(base)) continue;
    const dimensions = dimensionsOf(name.slice(cut + 1).split(WORD_SEPARATOR), tokens);
    return dimensions && { base, dimensions };
  }
  return undefined;
}

function dimensionsOf(
  words: readonly string[],
  tokens: ReadonlyMap<string, BillingNameToken>,
): Record<string, string> | undefined {
  const dimensions = new Map<string, string>();
  for (const word of words) {
    const token = tokens.get(word.toLowerCase());
    if (!token || dimensions.has(token.dimension)) return undefined;
    dimensions.set(token.dimension, token.value);
  }
  return Object.fromEntries(dimensions);
}
