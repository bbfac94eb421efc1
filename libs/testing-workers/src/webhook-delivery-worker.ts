import type { GatewayConfig, WebhookSettings } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import { IMAGE_JOB_EVENT_RENDERERS } from '@gateway/images';
import { createSafeFetcher } from '@gateway/providers-core';
import {
  EventDataRenderer,
  WebhookDeliveryStore,
  WebhookDeliveryWorker,
  WebhookSender,
} from '@gateway/webhooks';
import type { Pool } from 'pg';

export interface TestDeliveryWorkerOptions {
  pool: Pool;
  prisma: PrismaClient;
  config: GatewayConfig;
  /** Settings of this worker beyond the configuration's (a shorter attempt limit …). */
  settings?: Partial<WebhookSettings>;
  /** Where the worker's log lines go. */
  logLines?: string[];
}

/**
 * The delivery worker as worker-text composes it (apps/worker-text/src/webhook-delivery.processor.ts),
 * built from the libraries for tests of other apps, which may not import worker-text; started.
 */
export function startTestDeliveryWorker(options: TestDeliveryWorkerOptions): WebhookDeliveryWorker {
  const { config, settings = {}, logLines = [] } = options;
  const log = (fields: object, message: string) => logLines.push(`${message} ${JSON.stringify(fields)}`);
  const timeoutMs = settings.timeoutMs ?? config.webhooks.timeoutMs;
  const worker = new WebhookDeliveryWorker({
    store: new WebhookDeliveryStore(options.pool),
    sender: new WebhookSender(
      createSafeFetcher({
        allowPrivateHosts: config.ssrfAllowHosts,
        maxBytes: 64 * 1024,
        timeoutMs,
        maxRedirects: 0,
      }),
    ),
    renderer: new EventDataRenderer(
      options.prisma,
      config.publicBaseUrl ?? 'https://gateway.example.test',
      IMAGE_JOB_EVENT_RENDERERS,
    ),
    masterKeys: config.masterKeys,
    settings: { ...config.webhooks, ...settings },
    logger: { info: log, warn: log },
  });
  worker.start();
  return worker;
}
