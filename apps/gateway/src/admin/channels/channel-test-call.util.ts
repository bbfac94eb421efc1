import type { ModelPrice } from '@gateway/billing';
import { isVideoFamilyModel } from '@gateway/providers';
import type { TextDialect } from '@gateway/providers-core';
import type { ChannelModel } from '@gateway/routing';

/** The prompt of a test call: one word in, one token out, so the call costs next to nothing upstream. */
const TEST_PROMPT = 'ping';

/**
 * Whether a text call can test `model`: not a video family's model, and not priced only per image or
 * per second (an image model would make an image). Unpriced models are tried: the test bills nothing.
 */
export function isTextTestable(model: string, price: ModelPrice | undefined): boolean {
  if (isVideoFamilyModel(model)) return false;
  if (!price) return true;
  const billsTokens = price.inputPerMillion > 0n || price.outputPerMillion > 0n;
  return billsTokens || (price.perImage === undefined && price.perVideoSecond === undefined);
}

/** The model to test with: the one asked for when offered, else the first offered that text serves. */
export function pickTestModel(
  offered: readonly ChannelModel[],
  requested: string | undefined,
  testable: (model: string) => boolean,
): ChannelModel | undefined {
  if (requested !== undefined) return offered.find(({ model }) => model === requested);
  return offered.find(({ model }) => testable(model));
}

/** A one-token generation in the adapter's dialect. */
export function oneTokenRequest(dialect: TextDialect, upstreamModel: string): Record<string, unknown> {
  if (dialect === 'native') {
    return {
      contents: [{ role: 'user', parts: [{ text: TEST_PROMPT }] }],
      generationConfig: { maxOutputTokens: 1 },
    };
  }
  return { model: upstreamModel, messages: [{ role: 'user', content: TEST_PROMPT }], max_tokens: 1 };
}
