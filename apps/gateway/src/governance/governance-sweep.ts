import type { OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GovernanceReservations } from '@gateway/billing';
import type { Clock } from '@gateway/providers-core';

/**
 * Settles the budget reservations and task slots that no process settled (it died between admission
 * and settlement) once they expire, with the request's logged cost when its log exists. Every instance
 * runs it: a reservation is settled exactly once whoever gets there first.
 */
export class GovernanceSweep implements OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reservations: Pick<GovernanceReservations, 'sweepExpired'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.intervalMs);
    this.timer.unref();
  }

  async sweep(): Promise<number> {
    try {
      const settled = await this.reservations.sweepExpired(this.clock.now());
      if (settled > 0) this.logger.warn({ settled }, 'expired budget reservations settled by the sweep');
      return settled;
    } catch (error) {
      this.logger.warn({ err: error }, 'budget reservation sweep failed');
      return 0;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
