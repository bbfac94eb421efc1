import type { EnvironmentReader } from './environment-reader';
import type { WebhookSettings } from './gateway-config';

/** The Standard Webhooks schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the last. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;
/** A week: a retry later than that is a mistyped unit, not a schedule. */
const MAX_STEP_MS = 7 * 86_400_000;
const MAX_ATTEMPTS = 50;

/**
 * WEBHOOK_RETRY_SCHEDULE (comma-separated durations, one per attempt, each counted from the previous
 * attempt), WEBHOOK_TIMEOUT_MS (one attempt, answer included), WEBHOOK_POLL_INTERVAL_MS (how often the
 * delivery worker looks for due deliveries), WEBHOOK_ENDPOINT_CONCURRENCY (attempts in flight to one
 * endpoint), WEBHOOK_WORKER_CONCURRENCY (attempts in flight in one worker, all endpoints) and
 * WEBHOOK_RETENTION_DAYS (ended deliveries, their attempts and events are deleted that long after).
 */
export function parseWebhookSettings(reader: EnvironmentReader): WebhookSettings {
  const endpointConcurrency = reader.integer('WEBHOOK_ENDPOINT_CONCURRENCY', 4, { min: 1, max: 100 });
  const workerConcurrency = reader.integer('WEBHOOK_WORKER_CONCURRENCY', 64, { min: 1, max: 1_000 });
  if (endpointConcurrency > workerConcurrency) {
    reader.addProblem(
      `WEBHOOK_ENDPOINT_CONCURRENCY (${endpointConcurrency}) must not exceed WEBHOOK_WORKER_CONCURRENCY (${workerConcurrency})`,
    );
  }
  return {
    retryScheduleMs: parseRetrySchedule(reader),
    timeoutMs: reader.integer('WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
    pollIntervalMs: reader.integer('WEBHOOK_POLL_INTERVAL_MS', 1_000, { min: 10, max: 60_000 }),
    endpointConcurrency,
    workerConcurrency,
    retentionDays: reader.integer('WEBHOOK_RETENTION_DAYS', 30, { min: 0, max: 10_950 }),
  };
}

function parseRetrySchedule(reader: EnvironmentReader): number[] {
  const raw = reader.string('WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE);
  const steps = raw.split(',').map((step) => step.trim().toLowerCase());
  const schedule = steps.map((step) => {
    const match = DURATION.exec(step);
    return match ? Number(match[1]) * UNIT_MS[match[2]] : Number.NaN;
  });
  const usable =
    schedule.length >= 1 &&
    schedule.length <= MAX_ATTEMPTS &&
    schedule.every((ms) => Number.isFinite(ms) && ms <= MAX_STEP_MS);
  if (!usable) {
    reader.addProblem(
      `WEBHOOK_RETRY_SCHEDULE must be 1 to ${MAX_ATTEMPTS} comma-separated durations such as ${DEFAULT_WEBHOOK_RETRY_SCHEDULE} (units ms, s, m, h, d; each at most 7 d), got "${raw}"`,
    );
    return parseDefault();
  }
  return schedule;
}

function parseDefault(): number[] {
  return DEFAULT_WEBHOOK_RETRY_SCHEDULE.split(',').map((step) => {
    const match = DURATION.exec(step) as RegExpExecArray;
    return Number(match[1]) * UNIT_MS[match[2]];
  });
}
