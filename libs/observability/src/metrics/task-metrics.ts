import type { DomainMetrics } from './domain-metrics';
import { SeriesCache } from './series-cache';

/** A task row without a kind (older rows) counts under this. */
const UNKNOWN_KIND = 'unknown';
/**
 * Tasks whose last pending poll this process remembers. A task another worker finishes is never
 * forgotten here by its end, so the oldest entries go first once this many are kept (a few MB).
 */
const DEFAULT_MAX_TRACKED = 100_000;

/**
 * Task transitions and completion lag, as the step processor of a worker sees them. The lag is
 * measured from the last poll that still saw the task running to its terminal transition: the
 * upstream finished in between, so this is an upper bound that includes the poll interval. It is
 * observed only when this process made that poll (with several workers a task's polls spread over
 * them; each worker then reports the share it saw).
 */
export class TaskMetrics {
  private readonly lastPendingPollAt = new Map<string, number>();
  private readonly transitions = new SeriesCache<{ inc(): void }>();
  private readonly lag = new SeriesCache<{ observe(seconds: number): void }>();

  constructor(
    private readonly metrics: DomainMetrics,
    private readonly maxTracked = DEFAULT_MAX_TRACKED,
  ) {}

  /** A status change this process won (claim, terminal transition, abandon). */
  entered(kind: string | null, status: string): void {
    const label = kind ?? UNKNOWN_KIND;
    this.transitions
      .get(`${label}\u0000${status}`, () => this.metrics.taskTransitions.labels({ kind: label, status }))
      .inc();
  }

  /** A poll answered "still running" at `atMs`. */
  polledPending(taskId: string, atMs: number): void {
    // Re-inserted so that the map's order stays oldest-first for the eviction below.
    this.lastPendingPollAt.delete(taskId);
    this.lastPendingPollAt.set(taskId, atMs);
    if (this.lastPendingPollAt.size > this.maxTracked) {
      const oldest = this.lastPendingPollAt.keys().next();
      if (!oldest.done) this.lastPendingPollAt.delete(oldest.value);
    }
  }

  /** The upstream's outcome was recorded at `atMs` as `status` (completed or failed). */
  ended(kind: string | null, taskId: string, status: string, atMs: number): void {
    this.entered(kind, status);
    const polledAt = this.lastPendingPollAt.get(taskId);
    this.lastPendingPollAt.delete(taskId);
    if (polledAt === undefined) return;
    const label = kind ?? UNKNOWN_KIND;
    this.lag
      .get(label, () => this.metrics.taskCompletionLag.labels({ kind: label }))
      .observe(Math.max(0, atMs - polledAt) / 1000);
  }

  /** The task ended without an upstream outcome (deadline, abandon): nothing to measure. */
  forget(taskId: string): void {
    this.lastPendingPollAt.delete(taskId);
  }
}
