import { isModelAllowed, type ResolvedKey } from '@gateway/auth';
import { GatewayError } from '@gateway/errors';

/**
 * The first check of every generation, before any channel or price is looked at: a key limited to
 * some models may use only those. Throws the client's refusal.
 */
export function assertModelAllowed(key: ResolvedKey, model: string): void {
  if (!isModelAllowed(key, model)) {
    throw new GatewayError('model_not_allowed', `This API key may not use the model '${model}'.`, {
      param: 'model',
    });
  }
}

/**
 * The refusal of a model that no channel serves with the route's capability, or that has no price:
 * either way the client cannot use it, and an unpriced model is never served for free.
 */
export function modelNotFound(model: string): GatewayError {
  return new GatewayError('model_not_found', `The model '${model}' does not exist or is not available.`, {
    param: 'model',
  });
}
