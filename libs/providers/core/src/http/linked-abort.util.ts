import { RequestCancellation, type CancellationSignal } from './request-cancellation';

export interface LinkedAbortController {
  readonly signal: CancellationSignal;
  abort(reason?: unknown): void;
  /** Stops following the parent signal; call once the work the controller guards is over. */
  unlink(): void;
}

const NOTHING_TO_UNLINK = (): void => undefined;

/**
 * A cancellation of its own that also aborts (with the parent's reason) when the parent signal does.
 * Cheaper than AbortSignal.any and releases its listener explicitly, so long-lived parents do not leak.
 */
export function linkAbortController(parent: CancellationSignal | undefined): LinkedAbortController {
  const cancellation = new RequestCancellation();
  const abort = (reason?: unknown): void => cancellation.abort(reason);
  if (!parent) return { signal: cancellation, abort, unlink: NOTHING_TO_UNLINK };
  if (parent.aborted) {
    cancellation.abort(parent.reason);
    return { signal: cancellation, abort, unlink: NOTHING_TO_UNLINK };
  }
  const onParentAbort = (): void => cancellation.abort(parent.reason);
  parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: cancellation,
    abort,
    unlink: () => parent.removeEventListener('abort', onParentAbort),
  };
}
