import { Controller, Get, Header, Inject, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { RedisConnection } from '@gateway/redis';
import type { Pool } from 'pg';
import type { GatewayMetrics } from '@gateway/observability';
import { PG_POOL, METRICS, REDIS } from '../infrastructure/tokens';
import { OpenTasksSampler } from './open-tasks.sampler';
import { QueueDepthSampler } from './queue-depth.sampler';

const READINESS_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer in time`)), READINESS_TIMEOUT_MS).unref(),
    ),
  ]);
}

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
    @Optional() private readonly queueDepth?: QueueDepthSampler,
    @Optional() private readonly openTasks?: OpenTasksSampler,
  ) {}

  /** Liveness: the process serves HTTP. */
  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  /** Readiness: Postgres and Redis both answer; 503 naming the one that does not. */
  @Get('readyz')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const checks = await Promise.allSettled([
      withTimeout(this.pool.query('select 1'), 'postgres'),
      withTimeout(this.redis.ping(), 'redis'),
    ]);
    const [postgres, redis] = checks.map((check) =>
      check.status === 'fulfilled' ? 'ok' : String(check.reason),
    );
    const ready = postgres === 'ok' && redis === 'ok';
    reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', checks: { postgres, redis } });
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async prometheus(): Promise<string> {
    // A scrape never waits on an outage: samplers that do not answer in time (Redis away, whose
    // commands queue until it returns) leave their gauges at the last figures read.
    await withTimeout(Promise.all([this.queueDepth?.sample(), this.openTasks?.sample()]), 'samplers').catch(
      () => undefined,
    );
    return this.metrics.registry.metrics();
  }
}
