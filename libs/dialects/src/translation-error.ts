/**
 * A request that cannot be carried into the other dialect without changing its meaning. The gateway
 * answers it as a client error (bad request) naming `field`, never as an upstream failure.
 */
export class TranslationError extends Error {
  /**
   * @param field dotted path of the refused input in the caller's dialect, with array indexes,
   *   e.g. `generationConfig.topK` or `contents[2].parts[0].inlineData`.
   */
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TranslationError';
  }
}

/** A translated request plus the documented adjustments made on the way (dropped fields). */
export interface TranslatedRequest<TRequest> {
  request: TRequest;
  warnings: string[];
}
