import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import {
  systemClock,
  type AdapterContext,
  type CancellationSignal,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { CONFIG, LOGGER, UPSTREAM_HTTP } from '../platform/infrastructure/tokens';

/** Builds what an adapter call may use besides its request: the channel, the HTTP client, a logger. */
@Injectable()
export class AdapterContexts {
  constructor(
    @Inject(UPSTREAM_HTTP) private readonly http: UpstreamHttpClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  for(candidate: ChannelCandidate, signal: CancellationSignal): AdapterContext {
    return {
      channel: candidate.connection,
      http: this.http,
      clock: systemClock,
      logger: {
        warn: (message, fields) => this.logger.warn({ ...fields, channelId: candidate.id }, message),
        debug: (message, fields) => this.logger.debug({ ...fields, channelId: candidate.id }, message),
      },
      signal,
      headersTimeoutMs: this.config.upstreamHeadersTimeoutMs,
    };
  }
}
