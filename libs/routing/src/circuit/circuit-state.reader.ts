import type { RedisConnection } from '@gateway/redis';
import type { CircuitState } from './circuit-breaker';
import { circuitRedisKeys } from './circuit-redis.keys';

/** A channel's circuit as the shared state holds it. */
export interface CircuitSnapshot {
  state: CircuitState;
  /** When the circuit opened, in ms since the epoch; absent while closed. */
  openedAt?: number;
}

/**
 * Channel id → end of the cool-down of every open circuit, read from Redis in one call. The admin API
 * asks Redis rather than an instance's mirror (CircuitBreaker.stateOf), which may lag by a sync.
 */
export async function readOpenCircuits(redis: RedisConnection, prefix: string): Promise<Map<string, number>> {
  const shared = await redis.hgetall(circuitRedisKeys(prefix).openCircuits);
  const open = new Map<string, number>();
  for (const [channelId, openUntil] of Object.entries(shared)) {
    const until = Number(openUntil);
    if (Number.isFinite(until)) open.set(channelId, until);
  }
  return open;
}

/**
 * The state of a circuit from the end of its cool-down, as CircuitBreaker.stateOf decides it. Only the
 * end is stored; the failure script sets it to the opening time plus the cool-down, so the opening
 * time is recovered from the configured cool-down (off by the difference if that setting changed since).
 */
export function circuitSnapshotOf(
  openUntil: number | undefined,
  cooldownMs: number,
  now: number,
): CircuitSnapshot {
  if (openUntil === undefined) return { state: 'closed' };
  return { state: now < openUntil ? 'open' : 'half_open', openedAt: openUntil - cooldownMs };
}
