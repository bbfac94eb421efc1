/** Redis names of the shared circuit state, all under the configured prefix. */
export interface CircuitRedisKeys {
  /** Hash: channel id → end of the cool-down (ms since the epoch) of every open circuit. */
  readonly openCircuits: string;
  /** Pub/sub channel of state changes. */
  readonly events: string;
  /** Counter of a channel's recent failures, expiring with the window. */
  failures(channelId: string): string;
  /** Held by the one instance probing a half-open channel. */
  probe(channelId: string): string;
}

/**
 * The keys carry one hash tag, `{circuit}`: the scripts that open and close a circuit touch the shared
 * hash and the channel's counter and probe key together, which a Redis Cluster allows only within one
 * slot. The pub/sub channel is no key and needs none.
 */
export function circuitRedisKeys(prefix: string): CircuitRedisKeys {
  const keys = `${prefix}:{circuit}`;
  return {
    openCircuits: `${keys}:open`,
    events: `${prefix}:circuit:events`,
    failures: (channelId) => `${keys}:failures:${channelId}`,
    probe: (channelId) => `${keys}:probe:${channelId}`,
  };
}
