import { Module } from '@nestjs/common';
import { AdapterContexts } from './adapter-contexts';
import { AttemptMetrics } from './attempt-metrics';
import { ForwardedUrls } from './forwarded-urls';
import { InFlightGenerations } from './in-flight-generations';
import { SettlementRecorder } from './settlement-recorder';

/**
 * What every generation shares, whatever its modality: adapter contexts, attempt metrics, the
 * generations in flight (for the shutdown deadline), the settlement and request-log writer, and the
 * policy of URLs handed to upstreams.
 * One instance of each per process; the modality modules import this one.
 */
@Module({
  providers: [AdapterContexts, AttemptMetrics, ForwardedUrls, InFlightGenerations, SettlementRecorder],
  exports: [AdapterContexts, AttemptMetrics, ForwardedUrls, InFlightGenerations, SettlementRecorder],
})
export class GenerationModule {}
