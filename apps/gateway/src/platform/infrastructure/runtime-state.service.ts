import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { KeyResolver } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { LOGGER } from './tokens';

const PRICE_REFRESH_MS = 5000;

/**
 * Loads the in-memory state the hot path reads (channels, prices, circuit states, the key cache's
 * invalidation feed) before the first request, and keeps it fresh until shutdown.
 */
@Injectable()
export class RuntimeStateService implements OnApplicationBootstrap, OnModuleDestroy {
  private priceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
    private readonly prices: PriceBook,
    private readonly keys: KeyResolver,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.catalog.start(), this.breaker.start(), this.prices.refresh(), this.keys.start()]);
    this.priceTimer = setInterval(() => {
      this.prices
        .refresh()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'price refresh failed'));
    }, PRICE_REFRESH_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.priceTimer);
    await Promise.all([this.catalog.stop(), this.breaker.stop(), this.keys.close()]);
  }
}
