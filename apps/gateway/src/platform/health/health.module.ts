import { DynamicModule, Module } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { HealthController } from './health.controller';
import { OpenTasksSampler } from './open-tasks.sampler';
import { QueueDepthSampler } from './queue-depth.sampler';

@Module({})
export class HealthModule {
  /** Queue depths and open tasks are sampled where /admin is served (see QueueDepthSampler). */
  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: config.adminApiEnabled ? [QueueDepthSampler, OpenTasksSampler] : [],
    };
  }
}
