import { errorMessageOf } from '@gateway/observability';
import { systemClock, type Clock } from '@gateway/providers-core';
import { boundedCommand, type RedisConnection } from '@gateway/redis';
import { COUNT_FAILURE_SCRIPT, parseCountedFailures, type CountedFailures } from './auth-failure.script';
import { throttleSubjectOf } from './throttle-subject.util';

/** Structurally a pino logger's `warn`. */
export interface ThrottleLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface AuthFailureThrottleOptions {
  /** The configured Redis prefix. */
  prefix: string;
  /** Failures a client address may make per window; the ones after it are throttled. 0: no throttle. */
  limit: number;
  /** The window starts with an address's first failure and lasts this long. */
  windowMs: number;
  logger: ThrottleLogger;
  /** How long a failing request waits for Redis before it is answered uncounted. Default 250 ms. */
  redisTimeoutMs?: number;
  /** Throttled addresses this instance remembers, so that their next failures skip Redis. */
  maxRememberedAddresses?: number;
  clock?: Clock;
}

export type AuthFailureVerdict =
  { readonly throttled: false } | { readonly throttled: true; readonly retryAfterMs: number };

const NOT_THROTTLED: AuthFailureVerdict = Object.freeze({ throttled: false });
/** Without a pause between them, a Redis outage would log one warning per failed authentication. */
const OUTAGE_WARNING_INTERVAL_MS = 10_000;

/**
 * Counts failed authentications per client address across instances (one counter per address and
 * window in Redis) and says when a failing request gets 429 instead of its refusal.
 *
 * Only failures are reported to it: a request with a valid credential never waits for Redis and is
 * admitted whatever its address did before. Once an address is over the limit, this instance
 * remembers it until the window ends, so a flood of failures from it costs no more Redis calls. When
 * Redis is unreachable or slow, failures go uncounted and a warning is logged: an outage refuses
 * nobody the throttle would not have refused anyway.
 */
export class AuthFailureThrottle {
  /** Address (throttle subject) → end of its window, for addresses known to be over the limit. */
  private readonly throttledUntil = new Map<string, number>();
  private readonly clock: Clock;
  private lastOutageWarningAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: AuthFailureThrottleOptions,
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /** Counts a failed authentication from `clientAddress`; throttled once the address is over the limit. */
  async recordFailure(clientAddress: string): Promise<AuthFailureVerdict> {
    if (this.options.limit === 0) return NOT_THROTTLED;
    const subject = throttleSubjectOf(clientAddress);
    const now = this.clock.now();
    const rememberedUntil = this.throttledUntil.get(subject);
    if (rememberedUntil !== undefined) {
      if (rememberedUntil > now) return { throttled: true, retryAfterMs: rememberedUntil - now };
      this.throttledUntil.delete(subject);
    }
    const counted = await this.count(subject);
    if (counted === undefined || counted.failures <= this.options.limit) return NOT_THROTTLED;
    if (counted.failures === this.options.limit + 1) {
      this.options.logger.warn(
        { clientAddress: subject, limit: this.options.limit, windowMs: this.options.windowMs },
        'client address throttled after repeated authentication failures',
      );
    }
    this.remember(subject, now + counted.windowLeftMs);
    return { throttled: true, retryAfterMs: counted.windowLeftMs };
  }

  private async count(subject: string): Promise<CountedFailures | undefined> {
    try {
      const reply = await boundedCommand(this.redis, this.options.redisTimeoutMs ?? 250, () =>
        this.redis.eval(
          COUNT_FAILURE_SCRIPT,
          1,
          `${this.options.prefix}:auth:failures:${subject}`,
          this.options.windowMs,
        ),
      );
      return parseCountedFailures(reply);
    } catch (error) {
      this.warnOfOutage(errorMessageOf(error));
      return undefined;
    }
  }

  private remember(subject: string, until: number): void {
    this.throttledUntil.set(subject, until);
    if (this.throttledUntil.size > (this.options.maxRememberedAddresses ?? 10_000)) {
      const oldest = this.throttledUntil.keys().next();
      if (!oldest.done) this.throttledUntil.delete(oldest.value);
    }
  }

  private warnOfOutage(reason: string): void {
    const now = this.clock.now();
    if (now - this.lastOutageWarningAt < OUTAGE_WARNING_INTERVAL_MS) return;
    this.lastOutageWarningAt = now;
    this.options.logger.warn({ reason }, 'authentication failures not counted: Redis unavailable');
  }
}
