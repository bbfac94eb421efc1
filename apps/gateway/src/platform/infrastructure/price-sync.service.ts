import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisConnection } from '@gateway/redis';
import type { Logger } from 'pino';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { CONFIG, LOGGER, REDIS, REDIS_SUBSCRIBER } from './tokens';

/**
 * Prices live in every instance's memory (the hot path never queries them). A change made through
 * any instance's admin API is announced on Redis, and every instance reloads at once.
 */
@Injectable()
export class PriceSync implements OnModuleInit, OnModuleDestroy {
  private readonly channel: string;

  constructor(
    private readonly prices: PriceBook,
    @Inject(REDIS) private readonly publisher: RedisConnection,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: RedisConnection,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.channel = `${config.redisPrefix}:prices:changed`;
  }

  async onModuleInit(): Promise<void> {
    this.subscriber.on('message', this.onMessage);
    await this.subscriber.subscribe(this.channel);
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber.off('message', this.onMessage);
  }

  /** Reloads here, then tells the other instances. */
  async announceChange(): Promise<void> {
    await this.prices.refresh();
    await this.publisher.publish(this.channel, 'changed');
  }

  private readonly onMessage = (channel: string): void => {
    if (channel !== this.channel) return;
    this.prices.refresh().catch((error: unknown) => this.logger.warn({ err: error }, 'price reload failed'));
  };
}
