import { GatewayError } from '@gateway/errors';

/**
 * For unit specs: the GatewayError `run` throws. Any other error is rethrown, and a run that returns
 * fails the spec, so a refusal that did not happen cannot pass as one.
 */
export function refusalOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}
