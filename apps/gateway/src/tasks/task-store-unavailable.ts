import { GatewayError } from '@gateway/errors';

/**
 * For a task route's read or write of its rows (`.catch(taskStoreUnavailable)`): task rows through
 * the TaskRuntime, and the asset rows the theta routes keep beside them. The store failing, the
 * database unreachable, is a 503 the client may retry, in its family's envelope, never a 500: as for
 * a hold that billing cannot take.
 */
export function taskStoreUnavailable(error: unknown): never {
  throw new GatewayError(
    'service_unavailable',
    'The task store cannot be reached right now; retry shortly.',
    {
      cause: error,
    },
  );
}
