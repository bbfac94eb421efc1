import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { QueueDepthSampler } from './queue-depth.sampler';

@Module({ controllers: [HealthController], providers: [QueueDepthSampler] })
export class HealthModule {}
