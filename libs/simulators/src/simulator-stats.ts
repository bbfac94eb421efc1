import type { VideoCreateSummary } from './compat/video/compat-video.store';

/** Counters tests read through `GET /__sim/stats`. */
export interface SimulatorStatsSnapshot {
  requests: number;
  completed: number;
  /** Responses the client closed before the simulator finished writing them. */
  aborted: number;
  byRoute: Record<string, number>;
  /** compat video creates (remixes included) and cancellations. */
  videos: VideoCreateSummary;
}

export class SimulatorStats {
  private requests = 0;
  private completed = 0;
  private aborted = 0;
  private byRoute: Record<string, number> = {};

  countRequest(): void {
    this.requests += 1;
  }

  countRoute(route: string): void {
    this.byRoute[route] = (this.byRoute[route] ?? 0) + 1;
  }

  countOutcome(finished: boolean): void {
    if (finished) this.completed += 1;
    else this.aborted += 1;
  }

  snapshot(): Omit<SimulatorStatsSnapshot, 'videos'> {
    return {
      requests: this.requests,
      completed: this.completed,
      aborted: this.aborted,
      byRoute: { ...this.byRoute },
    };
  }

  reset(): void {
    this.requests = 0;
    this.completed = 0;
    this.aborted = 0;
    this.byRoute = {};
  }
}
