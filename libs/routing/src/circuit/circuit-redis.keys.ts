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

export function circuitRedisKeys(prefix: string): CircuitRedisKeys {
  return {
    openCircuits: `${prefix}:circuit:open`,
    events: `${prefix}:circuit:events`,
    failures: (channelId) => `${prefix}:circuit:failures:${channelId}`,
    probe: (channelId) => `${prefix}:circuit:probe:${channelId}`,
  };
}
