/**
 * The price of one public model, as the billing code reads it. Amounts are micros (1 unit = 1,000,000
 * micros); a dimension the row leaves empty costs nothing.
 */
export interface ModelPrice {
  model: string;
  /** Micros per million input tokens. */
  inputPerMillion: bigint;
  /** Micros per million output tokens. */
  outputPerMillion: bigint;
  /** Micros per call, added to every other dimension. */
  perCall: bigint;
  /** Micros per image by size or quality tier; undefined when the model is not priced per image. */
  perImage?: PriceByTier;
  /** Micros per second of video by resolution; undefined when the model is not priced per second. */
  perVideoSecond?: PriceByTier;
  /** Output tokens assumed for the hold when the request sets no cap. */
  defaultMaxOutputTokens?: number;
  /**
   * Reasoning tokens the model may spend per candidate beyond the request's output cap (its largest
   * thinking budget); the hold adds them. Undefined when its reasoning counts within the cap.
   */
  maxReasoningTokens?: number;
}

/** Micros keyed by a tier name such as a size, a quality or a resolution. */
export type PriceByTier = Readonly<Record<string, bigint>>;

/** What text billing reads from a price. */
export type TextPrice = Pick<ModelPrice, 'inputPerMillion' | 'outputPerMillion' | 'perCall'>;

/** What a text hold estimate reads from a price. */
export type TextHoldPrice = TextPrice & Pick<ModelPrice, 'defaultMaxOutputTokens' | 'maxReasoningTokens'>;
