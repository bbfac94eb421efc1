import { Injectable } from '@nestjs/common';
import type { CancellationSignal, RequestCancellation } from '@gateway/providers-core';

/** The reason a generation is cancelled with when the shutdown deadline ends it. */
export class ShutdownDeadlineReached extends Error {
  constructor() {
    super('the shutdown deadline was reached');
  }
}

/** What a client is told when the shutdown deadline ends its request. */
export const SHUTDOWN_MESSAGE = 'The gateway is shutting down; retry the request.';

export function endedByShutdown(signal: CancellationSignal): boolean {
  return signal.aborted && signal.reason instanceof ShutdownDeadlineReached;
}

/**
 * The generations this process is serving, from their hold to their settlement, so that shutdown can
 * end them at its deadline (SHUTDOWN_GRACE_MS) instead of waiting for streams of any length. Each is
 * cancelled with ShutdownDeadlineReached: it answers its client in the route's dialect (an error event
 * in a stream that started, a 503 before) and settles as every request does.
 */
@Injectable()
export class InFlightGenerations {
  private readonly running = new Map<RequestCancellation, Promise<void>>();
  private ending = false;

  get size(): number {
    return this.running.size;
  }

  /** Runs one generation; one that starts after endAll() is cancelled at once. */
  async run(cancellation: RequestCancellation, generation: () => Promise<void>): Promise<void> {
    if (this.ending) cancellation.abort(new ShutdownDeadlineReached());
    const finished = generation();
    this.running.set(cancellation, finished);
    try {
      await finished;
    } finally {
      this.running.delete(cancellation);
    }
  }

  /** Cancels every generation; resolves once each has answered its client and handed its settlement over. */
  async endAll(): Promise<void> {
    this.ending = true;
    const finishing = [...this.running];
    for (const [cancellation] of finishing) cancellation.abort(new ShutdownDeadlineReached());
    await Promise.allSettled(finishing.map(([, finished]) => finished));
  }
}
