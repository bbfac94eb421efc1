import { UpstreamError } from '../upstream-error';

/**
 * Awaits an adapter call a test expects to fail and returns its UpstreamError, so the test can
 * assert the classified failure; a success or any other error fails the test.
 */
export async function upstreamFailureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
}
