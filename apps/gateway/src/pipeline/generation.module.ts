import { Module } from '@nestjs/common';
import { ChannelAttempts } from './channel-attempts';
import { GenerationPipeline } from './generation-pipeline';
import { AdapterContexts } from './adapter-contexts';
import { AttemptMetrics } from './attempt-metrics';
import { ForwardedUrls } from './forwarded-urls';
import { InFlightGenerations } from './in-flight-generations';
import { SettlementRecorder } from './settlement-recorder';

const SHARED = [
  GenerationPipeline,
  ChannelAttempts,
  AdapterContexts,
  AttemptMetrics,
  ForwardedUrls,
  InFlightGenerations,
  SettlementRecorder,
];

/**
 * The generation pipeline and what every generation shares, whatever its modality: channel attempts
 * with failover, adapter contexts, attempt metrics, the generations in flight (for the shutdown
 * deadline), the settlement and request-log writer, and the policy of URLs handed to upstreams.
 * One instance of each per process; the route modules import this one.
 */
@Module({ providers: SHARED, exports: SHARED })
export class GenerationModule {}
