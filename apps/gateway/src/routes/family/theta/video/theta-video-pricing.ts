import { MAX_HOLD_MICROS, type ModelPrice } from '@gateway/billing';
import { estimateTheta2Tokens } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';
import type { AdmittedVideo } from '../../../modality/videos/video-admission';

const TOKENS_PER_PRICE_UNIT = 1_000_000n;

/**
 * theta 2.0 is billed by the tokens its upstream reports (upstreams.md §6.2), at the price row's
 * `inputPerMillion` and `outputPerMillion`: the hold is per call + the rules' estimate of the output
 * tokens (estimateTheta2Tokens: duration × frames × pixels at the resolution and ratio) at the output
 * price, and the settlement captures per call + the reported tokens at both prices. A row that prices
 * no tokens keeps the per-second pricing every video has.
 */
export function priceByTokens(admitted: AdmittedVideo, price: ModelPrice | undefined): AdmittedVideo {
  if (!price || (price.inputPerMillion === 0n && price.outputPerMillion === 0n)) return admitted;
  const heldTokens = estimateTheta2Tokens(admitted.call);
  const tokenMicros = BigInt(heldTokens) * price.outputPerMillion;
  const holdMicros = price.perCall + (tokenMicros + TOKENS_PER_PRICE_UNIT - 1n) / TOKENS_PER_PRICE_UNIT;
  if (holdMicros > MAX_HOLD_MICROS) {
    throw GatewayError.invalidRequest(
      `${heldTokens} tokens of this model would reserve more than ${MAX_HOLD_MICROS} micros; ask for fewer seconds.`,
      'metadata.duration',
    );
  }
  return {
    ...admitted,
    holdMicros,
    price: {
      ...admitted.price,
      perCallMicros: price.perCall,
      perSecondMicros: 0n,
      tokens: {
        inputPerMillionMicros: price.inputPerMillion,
        outputPerMillionMicros: price.outputPerMillion,
        heldTokens,
      },
    },
  };
}
