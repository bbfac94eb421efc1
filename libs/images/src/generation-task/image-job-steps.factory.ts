import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { GatewayLogger } from '@gateway/observability';
import {
  createSafeFetcher,
  systemClock,
  type AdapterContext,
  type CancellationSignal,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import { ChannelCatalog, channelChangesChannel, CircuitBreaker, pgChannelRowSource } from '@gateway/routing';
import type { ChannelCandidate } from '@gateway/routing';
import { createObjectStore } from '@gateway/storage';
import {
  PG_POOL,
  TaskSettlementService,
  TaskStore,
  tracedTaskSettlements,
  WORKER_CONFIG,
  WORKER_LOGGER,
  type DelegatedTaskSteps,
  type DelegatedTaskStepsFactory,
} from '@gateway/tasks';
import { QueueRuntime, TASK_UPSTREAM_HTTP } from '@gateway/tasks/worker';
import type { Pool } from 'pg';
import { isImageJobTask } from './image-job-request';
import { ImageJobStep } from './image-job.step';

/** As the gateway's fetcher of upstream image URLs. */
const SAFE_FETCH_MAX_REDIRECTS = 3;

/**
 * worker-image's steps of asynchronous image jobs (TaskStepWorkerModule's `delegatedSteps`), with
 * what the synchronous route calls upstreams with: the channels and prices read from the database at
 * each run (a job is seconds to minutes of upstream work; one read each costs nothing beside it), the
 * circuit breaker shared through Redis, the upstream HTTP client of the worker, the SSRF-safe fetcher
 * and the object store.
 */
export function imageJobSteps(): DelegatedTaskStepsFactory {
  return {
    inject: [
      TaskStore,
      TaskSettlementService,
      WORKER_CONFIG,
      WORKER_LOGGER,
      PG_POOL,
      QueueRuntime,
      TASK_UPSTREAM_HTTP,
    ],
    useFactory: async (
      store: TaskStore,
      settlement: TaskSettlementService,
      config: GatewayConfig,
      logger: GatewayLogger,
      pool: Pool,
      queues: QueueRuntime,
      http: UpstreamHttpClient,
    ): Promise<DelegatedTaskSteps> => {
      const objects = await createObjectStore(config.objectStore);
      const redis = queues.commands();
      // Never started: this worker does not follow change announcements; it reloads at each run.
      const catalog = new ChannelCatalog(pgChannelRowSource(pool), redis, redis, {
        channelName: channelChangesChannel(config.redisPrefix),
        keyring: config.masterKeys.keys,
        refreshIntervalMs: 0,
        logger,
      });
      // Not subscribed either: the open circuits are read from Redis at each run (sync).
      const breaker = new CircuitBreaker(redis, redis, {
        prefix: config.redisPrefix,
        failureThreshold: config.circuitFailureThreshold,
        windowMs: config.circuitWindowMs,
        cooldownMs: config.circuitCooldownMs,
        logger,
      });
      const prices = new PriceBook(pool);
      const step = new ImageJobStep({
        rows: store,
        settlement: tracedTaskSettlements(settlement),
        candidatesFor: async (model) => {
          await Promise.all([catalog.refresh(), breaker.sync()]);
          return catalog.candidatesFor(model);
        },
        priceFor: async (model) => {
          await prices.refresh();
          return prices.priceFor(model);
        },
        breaker,
        maxAttempts: config.maxAttempts,
        contextFor: (candidate, signal) => adapterContextOf(candidate, signal, http, config, logger),
        fetcher: createSafeFetcher({
          allowPrivateHosts: config.ssrfAllowHosts,
          maxBytes: config.safeFetchMaxBytes,
          timeoutMs: config.safeFetchTimeoutMs,
          maxRedirects: SAFE_FETCH_MAX_REDIRECTS,
        }),
        objects,
        limits: { timeoutMs: config.imageTaskTimeoutMs, pollIntervalMs: config.imageTaskPollIntervalMs },
        logger,
      });
      return {
        owns: isImageJobTask,
        process: (job, token) => step.process(job, token),
        runStep: (taskId) => step.runStep(taskId),
      };
    },
  };
}

/** What an adapter call may use besides its request, as the gateway's AdapterContexts builds it. */
function adapterContextOf(
  candidate: ChannelCandidate,
  signal: CancellationSignal,
  http: UpstreamHttpClient,
  config: GatewayConfig,
  logger: GatewayLogger,
): AdapterContext {
  return {
    channel: candidate.connection,
    http,
    clock: systemClock,
    logger: {
      warn: (message, fields) => logger.warn({ ...fields, channelId: candidate.id }, message),
      debug: (message, fields) => logger.debug({ ...fields, channelId: candidate.id }, message),
    },
    signal,
    headersTimeoutMs: config.upstreamHeadersTimeoutMs,
  };
}
