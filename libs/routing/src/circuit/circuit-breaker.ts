import { randomUUID } from 'node:crypto';
import { errorMessageOf } from '@gateway/observability';
import { isChannelFault, systemClock, type Clock, type UpstreamErrorKind } from '@gateway/providers-core';
import { boundedCommand, type RedisConnection } from '@gateway/redis';
import { parseCircuitEvent } from './circuit-event.parse';
import { circuitRedisKeys, type CircuitRedisKeys } from './circuit-redis.keys';
import { RECORD_FAILURE_SCRIPT, RECORD_SUCCESS_SCRIPT, parseCircuitScriptResult } from './circuit.scripts';

export type CircuitState = 'closed' | 'open' | 'half_open';

/** Structurally a pino logger's `warn`. */
export interface CircuitLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface CircuitBreakerOptions {
  /** The configured Redis prefix. */
  prefix: string;
  /** Channel-fault failures within the window that open a circuit. */
  failureThreshold: number;
  windowMs: number;
  /** How long an open circuit refuses traffic before one probe is let through. */
  cooldownMs: number;
  /** Full re-read of the shared state, healing lost messages. Default 5 s. */
  syncIntervalMs?: number;
  /** How long a probe holds the half-open slot before another instance may probe. Default: cooldownMs. */
  probeTimeoutMs?: number;
  /**
   * How long the half-open probe's claim, which its request waits for, may take. Default 250 ms. The
   * success and failure reports, which nobody waits for, queue through a reconnect instead (a
   * Sentinel failover must not lose them).
   */
  redisTimeoutMs?: number;
  logger: CircuitLogger;
  clock?: Clock;
}

/**
 * Per-channel circuit breaker whose state all instances share through Redis.
 *
 * Failures are counted in Redis within a window; at the threshold a script opens the circuit until
 * now + cool-down and announces it. Every instance mirrors the open circuits in memory (from the
 * announcements and a periodic re-read), so asking about a healthy channel, or reporting a success on
 * one, never touches Redis. After the cool-down the circuit is half-open: one request across all
 * instances (whoever sets the probe key first) goes through; its success closes the circuit
 * everywhere, its failure opens it again.
 *
 * Report only what the upstream said about the channel: recordFailure ignores kinds that are not
 * channel faults. A probe that ends with such a kind reports nothing; its slot frees itself after
 * probeTimeoutMs.
 */
export class CircuitBreaker {
  /** Channel id → end of the cool-down, for every circuit known to be open. */
  private openCircuits = new Map<string, number>();
  private readonly keys: CircuitRedisKeys;
  private readonly clock: Clock;
  private readonly instanceId = randomUUID();
  private syncTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly subscriber: RedisConnection,
    private readonly options: CircuitBreakerOptions,
  ) {
    this.keys = circuitRedisKeys(options.prefix);
    this.clock = options.clock ?? systemClock;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', this.onMessage);
    await this.subscriber.subscribe(this.keys.events);
    // Listening only now: the connection's first `ready` is not a reconnection.
    this.subscriber.on('ready', this.onReconnect);
    await this.sync();
    this.syncTimer = setInterval(() => this.syncInBackground(), this.options.syncIntervalMs ?? 5000);
    this.syncTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.syncTimer);
    this.syncTimer = undefined;
    this.subscriber.off('message', this.onMessage);
    this.subscriber.off('ready', this.onReconnect);
    if (this.subscriber.status === 'ready') await this.subscriber.unsubscribe(this.keys.events);
  }

  /** The state as this instance knows it; no Redis call. */
  stateOf(channelId: string, now = this.clock.now()): CircuitState {
    const openUntil = this.openCircuits.get(channelId);
    if (openUntil === undefined) return 'closed';
    return now < openUntil ? 'open' : 'half_open';
  }

  /**
   * Whether a request may go to the channel now. Closed: yes and open: no, answered at once without
   * Redis (the hot path does not wait a turn for them). Half-open: yes for the one caller across all
   * instances that wins the probe slot; when Redis cannot be asked, no (logged), so the request moves
   * on to another channel instead of failing.
   */
  isAvailable(channelId: string, now = this.clock.now()): boolean | Promise<boolean> {
    const state = this.stateOf(channelId, now);
    return state === 'half_open' ? this.claimProbe(channelId) : state === 'closed';
  }

  private claimProbe(channelId: string): Promise<boolean> {
    const probeTimeoutMs = this.options.probeTimeoutMs ?? this.options.cooldownMs;
    return this.withoutRejecting(
      channelId,
      'circuit probe not claimed: Redis did not answer; the channel stays unavailable',
      false,
      // The request waits for this one, so it is bounded (boundedCommand): through an outage the
      // shared connection would hold it until Redis is back. A claim sent late lapses after
      // probeTimeoutMs.
      async () =>
        (await boundedCommand(this.redis, this.options.redisTimeoutMs ?? 250, () =>
          this.redis.set(this.keys.probe(channelId), this.instanceId, 'PX', probeTimeoutMs, 'NX'),
        )) === 'OK',
    );
  }

  /**
   * A call to the channel succeeded. Free for a closed circuit; closes a half-open one everywhere.
   * Never rejects (callers do not wait for it): when Redis cannot take it, it is logged, and the
   * probe slot lapses so that another probe closes the circuit.
   */
  async recordSuccess(channelId: string): Promise<void> {
    const now = this.clock.now();
    if (this.stateOf(channelId, now) !== 'half_open') return;
    await this.withoutRejecting(
      channelId,
      'circuit success not recorded: Redis did not take it',
      undefined,
      () => this.recordSuccessInRedis(channelId, now),
    );
  }

  private async recordSuccessInRedis(channelId: string, now: number): Promise<void> {
    const reply = await this.redis.eval(
      RECORD_SUCCESS_SCRIPT,
      3,
      this.keys.openCircuits,
      this.keys.probe(channelId),
      this.keys.failures(channelId),
      channelId,
      now,
      this.keys.events,
    );
    const { outcome, openUntil } = parseCircuitScriptResult(reply);
    if (outcome === 2) this.openCircuits.set(channelId, openUntil);
    else this.openCircuits.delete(channelId);
  }

  /**
   * A call to the channel failed with `kind`; only channel faults count towards opening. Never
   * rejects (callers do not wait for it): a fault Redis cannot count is logged and not counted.
   */
  async recordFailure(channelId: string, kind: UpstreamErrorKind): Promise<void> {
    const now = this.clock.now();
    if (!isChannelFault(kind) || this.stateOf(channelId, now) === 'open') return;
    await this.withoutRejecting(
      channelId,
      'circuit failure not recorded: Redis did not take it',
      undefined,
      () => this.recordFailureInRedis(channelId, now),
    );
  }

  private async recordFailureInRedis(channelId: string, now: number): Promise<void> {
    const reply = await this.redis.eval(
      RECORD_FAILURE_SCRIPT,
      3,
      this.keys.failures(channelId),
      this.keys.openCircuits,
      this.keys.probe(channelId),
      channelId,
      now,
      this.options.windowMs,
      this.options.failureThreshold,
      this.options.cooldownMs,
      this.keys.events,
    );
    const { outcome, openUntil } = parseCircuitScriptResult(reply);
    if (outcome !== 0) this.openCircuits.set(channelId, openUntil);
  }

  /** Runs a Redis call whose failure must not reach the request: it is logged, and `fallback` answered. */
  private async withoutRejecting<T>(
    channelId: string,
    warning: string,
    fallback: T,
    call: () => Promise<T>,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.options.logger.warn({ channelId, reason: errorMessageOf(error) }, warning);
      return fallback;
    }
  }

  /** Replaces the local mirror with the shared state. */
  async sync(): Promise<void> {
    const shared = await this.redis.hgetall(this.keys.openCircuits);
    const openCircuits = new Map<string, number>();
    for (const [channelId, openUntil] of Object.entries(shared)) {
      const until = Number(openUntil);
      if (Number.isFinite(until)) openCircuits.set(channelId, until);
    }
    this.openCircuits = openCircuits;
  }

  private syncInBackground(): void {
    this.sync().catch((error: unknown) => {
      this.options.logger.warn(
        { reason: errorMessageOf(error) },
        'circuit state sync failed; keeping the previous state',
      );
    });
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== this.keys.events) return;
    const event = parseCircuitEvent(message);
    if (event === undefined) return;
    if ('closed' in event) this.openCircuits.delete(event.channelId);
    else this.openCircuits.set(event.channelId, event.openUntil);
  };

  /** Announcements sent while the subscriber was away are lost: re-read the shared state. */
  private readonly onReconnect = (): void => this.syncInBackground();
}
