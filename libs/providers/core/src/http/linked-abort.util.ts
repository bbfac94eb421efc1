export interface LinkedAbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Stops following the parent signal; call once the work the controller guards is over. */
  unlink(): void;
}

const NOTHING_TO_UNLINK = (): void => undefined;

/**
 * An AbortController of its own that also aborts (with the parent's reason) when the parent signal does.
 * Cheaper than AbortSignal.any and releases its listener explicitly, so long-lived parents do not leak.
 */
export function linkAbortController(parent: AbortSignal | undefined): LinkedAbortController {
  const controller = new AbortController();
  const abort = (reason?: unknown): void => controller.abort(reason);
  if (!parent) return { signal: controller.signal, abort, unlink: NOTHING_TO_UNLINK };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, abort, unlink: NOTHING_TO_UNLINK };
  }
  const onParentAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    abort,
    unlink: () => parent.removeEventListener('abort', onParentAbort),
  };
}
