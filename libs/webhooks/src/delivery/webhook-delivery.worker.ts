import type { MasterKeyring, WebhookSettings } from '@gateway/config';
import { errorMessageOf } from '@gateway/observability';
import type { EventDataRenderer } from '../event-data/event-data.renderer';
import { webhookEventBody } from '../webhook-event-body';
import { openWebhookSecret } from '../webhook-secret.util';
import { signWebhook } from '../webhook-signature.util';
import type { ClaimedDelivery, WebhookDeliveryStore } from './webhook-delivery.store';
import type { SendResult, WebhookSender } from './webhook-sender';

export interface WebhookDeliveryLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface WebhookDeliveryDependencies {
  store: WebhookDeliveryStore;
  sender: WebhookSender;
  renderer: EventDataRenderer;
  masterKeys: MasterKeyring;
  settings: WebhookSettings;
  logger: WebhookDeliveryLogger;
}

/** Time beyond the attempt's own limit for recording its outcome before the lease lets it go. */
const LEASE_MARGIN_MS = 5_000;
/** How soon an event whose task is not yet settled is looked at again. */
const RENDER_RETRY_MS = 250;
/** How often the ended deliveries past WEBHOOK_RETENTION_DAYS are deleted, and how many per statement. */
const RETENTION_SWEEP_INTERVAL_MS = 3_600_000;
const RETENTION_SWEEP_BATCH = 1_000;

/**
 * Delivers the outbox: every poll interval it claims the due deliveries it has room for (at most
 * WEBHOOK_WORKER_CONCURRENCY in flight, WEBHOOK_ENDPOINT_CONCURRENCY per endpoint across workers), and
 * sends each without waiting for the others, so an endpoint that never answers holds only its own
 * slots. Every failure is the database's to remember: an outcome that cannot be written (Postgres
 * away) leaves the delivery leased, and it is sent again once the lease ends (at least once).
 */
export class WebhookDeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private claiming = false;

  constructor(private readonly deps: WebhookDeliveryDependencies) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
    if (this.deps.settings.retentionDays > 0) {
      this.sweepTimer = setInterval(() => void this.sweepEnded(), RETENTION_SWEEP_INTERVAL_MS);
      this.sweepTimer.unref();
    }
  }

  /** Stops claiming, then waits for the attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.sweepTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  /** One claim round; returns how many deliveries it started (tests call it directly). */
  async claimOnce(): Promise<number> {
    if (this.claiming) return 0;
    this.claiming = true;
    try {
      const { settings } = this.deps;
      const claimed = await this.deps.store.claim({
        capacity: settings.workerConcurrency - this.inFlight.size,
        perEndpoint: settings.endpointConcurrency,
        leaseMs: settings.timeoutMs + LEASE_MARGIN_MS,
      });
      for (const delivery of claimed) this.track(this.deliver(delivery));
      return claimed.length;
    } finally {
      this.claiming = false;
    }
  }

  /**
   * Deletes the deliveries that ended more than WEBHOOK_RETENTION_DAYS ago (with their attempts and
   * events), in batches; every worker-text runs it, and overlapping runs delete each row once.
   */
  async sweepEnded(): Promise<number> {
    let deleted = 0;
    try {
      for (;;) {
        const batch = await this.deps.store.sweepEnded(
          this.deps.settings.retentionDays,
          RETENTION_SWEEP_BATCH,
        );
        deleted += batch;
        if (batch < RETENTION_SWEEP_BATCH || this.stopped) break;
      }
    } catch (error) {
      this.deps.logger.warn(
        { error: errorMessageOf(error) },
        'webhook retention sweep failed; it runs again later',
      );
    }
    if (deleted > 0)
      this.deps.logger.info({ deleted }, 'deleted ended webhook deliveries past their retention');
    return deleted;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.round(), delayMs);
  }

  private async round(): Promise<void> {
    let claimed = 0;
    try {
      claimed = await this.claimOnce();
    } catch (error) {
      this.deps.logger.warn({ error: errorMessageOf(error) }, 'webhook deliveries could not be claimed');
    }
    const full = claimed > 0 && this.inFlight.size >= this.deps.settings.workerConcurrency;
    // A round that filled every slot waits for one to free (track() schedules then); one that found
    // work claims again at once, in case there is more; an idle one waits the poll interval.
    if (!full) this.schedule(claimed > 0 ? 0 : this.deps.settings.pollIntervalMs);
  }

  private track(attempt: Promise<void>): void {
    const tracked = attempt.finally(() => {
      this.inFlight.delete(tracked);
      if (this.inFlight.size === this.deps.settings.workerConcurrency - 1) this.schedule(0);
    });
    this.inFlight.add(tracked);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    try {
      const body = delivery.payload ?? (await this.renderOnce(delivery));
      if (body === undefined) {
        await this.deps.store.postpone(delivery, RENDER_RETRY_MS);
        return;
      }
      const result = await this.attempt(delivery, body);
      await this.record(delivery, result);
    } catch (error) {
      this.deps.logger.warn(
        { deliveryId: delivery.id, error: errorMessageOf(error) },
        'webhook attempt not recorded; it is sent again when its lease ends',
      );
    }
  }

  /**
   * The event's body, rendered by the first worker to send it and kept; undefined while its task's
   * settlement is still to be recorded (the delivery is then looked at again shortly, no attempt made).
   */
  private async renderOnce(delivery: ClaimedDelivery): Promise<string | undefined> {
    const createdAt = new Date(delivery.eventCreatedAtMs);
    const data = await this.deps.renderer.render({
      type: delivery.eventType,
      subjectId: delivery.subjectId,
      createdAt,
    });
    if (data === undefined) return undefined;
    const body = webhookEventBody({ id: delivery.eventId, type: delivery.eventType, createdAt }, data);
    return this.deps.store.keepPayload(delivery.eventId, body);
  }

  /** A secret the master keys cannot open fails the attempt like an unreachable endpoint. */
  private async attempt(delivery: ClaimedDelivery, body: string): Promise<SendResult> {
    let secrets: string[];
    try {
      secrets = this.secretsOf(delivery);
    } catch (error) {
      return { delivered: false, statusCode: null, latencyMs: 0, error: errorMessageOf(error) };
    }
    const headers = signWebhook(delivery.id, new Date(), body, secrets);
    return this.deps.sender.send(delivery.url, body, { ...headers });
  }

  private secretsOf(delivery: ClaimedDelivery): string[] {
    const { masterKeys } = this.deps;
    const current = openWebhookSecret(
      { ciphertext: delivery.secretCiphertext, keyVersion: delivery.secretKeyVersion },
      masterKeys,
    );
    if (delivery.previousSecretCiphertext === null || delivery.previousSecretKeyVersion === null)
      return [current];
    const previous = openWebhookSecret(
      { ciphertext: delivery.previousSecretCiphertext, keyVersion: delivery.previousSecretKeyVersion },
      masterKeys,
    );
    return [current, previous];
  }

  /**
   * 2xx delivers; 410 Gone ends the delivery and disables the endpoint (the receiver says it is gone
   * for good); anything else waits the schedule's next step, or fails the delivery after its last.
   */
  private async record(delivery: ClaimedDelivery, result: SendResult): Promise<void> {
    const { retryScheduleMs } = this.deps.settings;
    const made = delivery.attempts + 1;
    const outcome = { statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error };
    if (result.delivered) {
      await this.deps.store.record(delivery, { status: 'delivered' }, outcome);
      return;
    }
    if (result.statusCode === 410) {
      await this.deps.store.recordGone(delivery, outcome, 'the endpoint answered 410 Gone');
      this.deps.logger.info({ endpointId: delivery.endpointId }, 'webhook endpoint answered 410; disabled');
      return;
    }
    if (made >= retryScheduleMs.length) {
      await this.deps.store.record(delivery, { status: 'failed' }, outcome);
      this.deps.logger.warn(
        { deliveryId: delivery.id, attempts: made, error: result.error },
        'webhook delivery failed after its last attempt',
      );
      return;
    }
    await this.deps.store.record(delivery, { status: 'pending', retryInMs: retryScheduleMs[made] }, outcome);
  }
}
