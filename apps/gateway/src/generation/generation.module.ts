import { Module } from '@nestjs/common';
import { AdapterContexts } from './adapter-contexts';
import { AttemptMetrics } from './attempt-metrics';
import { InFlightGenerations } from './in-flight-generations';
import { SettlementRecorder } from './settlement-recorder';

/**
 * What every synchronous generation shares, whatever its modality: adapter contexts, attempt metrics,
 * the generations in flight (for the shutdown deadline) and the settlement and request-log writer.
 * One instance of each per process; the modality modules import this one.
 */
@Module({
  providers: [AdapterContexts, AttemptMetrics, InFlightGenerations, SettlementRecorder],
  exports: [AdapterContexts, AttemptMetrics, InFlightGenerations, SettlementRecorder],
})
export class GenerationModule {}
