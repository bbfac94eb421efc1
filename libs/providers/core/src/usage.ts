/** Token usage normalised across wire dialects. Billing prices input and output tokens. */
export interface TokenUsage {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  /** Output tokens billed as output: visible output plus reasoning tokens. */
  outputTokens: number;
  /** Subset of inputTokens served from a cache. */
  cachedInputTokens?: number;
  /** Subset of outputTokens spent on reasoning. */
  reasoningTokens?: number;
}

/** Images produced, with the tier their price is looked up by. */
export interface ImageUsage {
  /** Images actually returned: in group mode only the items that succeeded. */
  count: number;
  /** Size tier as priced: `1024x1024`, `1k`, `2k`, `4k` … Absent when the model has one price. */
  size?: string;
  /** Quality tier as priced: `standard`, `hd`, `low`, `high` … */
  quality?: string;
}

/** Seconds of video produced, at the resolution their price depends on. */
export interface VideoUsage {
  seconds: number;
  /** `720p`, `1080p` … */
  resolution?: string;
}

export interface AudioUsage {
  seconds: number;
}

/**
 * What one call produced, in every dimension billing can price: an adapter fills in those its
 * wire reports, and billing prices whichever are present. Adapters never compute money.
 */
export interface Usage {
  tokens?: TokenUsage;
  images?: ImageUsage;
  video?: VideoUsage;
  audio?: AudioUsage;
}
