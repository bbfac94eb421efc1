import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import { IMAGE_JOB_EVENT_RENDERERS } from '@gateway/images';
import type { GatewayLogger, WorkerMetrics } from '@gateway/observability';
import { createSafeFetcher } from '@gateway/providers-core';
import { PG_POOL, PRISMA_CLIENT, WORKER_CONFIG, WORKER_LOGGER, WORKER_METRICS } from '@gateway/tasks';
import { EventDataRenderer, WebhookDeliveryWorker, WebhookSender } from '@gateway/webhooks';
import type { Pool } from 'pg';
import { CountedWebhookDeliveryStore } from './counted-webhook-delivery.store';

/** A receiver's answer is not read; a little of it is let through so the connection ends cleanly. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * The delivery of webhook events (libs/webhooks), in worker-text: like the settlements and the
 * reaper, it is background work of the whole gateway rather than of one task queue, it must run
 * wherever a gateway runs (every stack starts worker-text), and its load (short HTTP posts) is
 * nothing like a task step's. Work comes from Postgres (the outbox), not from a queue: Redis may be
 * away without delaying it.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: WebhookDeliveryWorker;

  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(PRISMA_CLIENT) prisma: PrismaClient,
    @Inject(WORKER_CONFIG) config: GatewayConfig,
    @Inject(WORKER_LOGGER) logger: GatewayLogger,
    @Inject(WORKER_METRICS) metrics: WorkerMetrics,
  ) {
    const fetcher = createSafeFetcher({
      allowPrivateHosts: config.ssrfAllowHosts,
      maxBytes: ANSWER_MAX_BYTES,
      timeoutMs: config.webhooks.timeoutMs,
      maxRedirects: 0,
    });
    // Without PUBLIC_BASE_URL the gateway answers with the URL a client used; a worker has none, so
    // the URLs in events (a video's content) then name the gateway's own port on this host.
    const baseUrl = config.publicBaseUrl ?? `http://localhost:${config.port}`;
    this.worker = new WebhookDeliveryWorker({
      store: new CountedWebhookDeliveryStore(pool, metrics),
      sender: new WebhookSender(fetcher),
      renderer: new EventDataRenderer(prisma, baseUrl, IMAGE_JOB_EVENT_RENDERERS),
      masterKeys: config.masterKeys,
      settings: config.webhooks,
      logger,
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  /** Before the pool closes: attempts in flight finish (each within WEBHOOK_TIMEOUT_MS) and are recorded. */
  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
