/** A state change announced on the events channel. */
export type CircuitEvent = { channelId: string; openUntil: number } | { channelId: string; closed: true };

/** Parses an events-channel message; undefined for anything malformed. */
export function parseCircuitEvent(message: string): CircuitEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('channelId' in parsed)) return undefined;
  const { channelId } = parsed;
  if (typeof channelId !== 'string') return undefined;
  if ('closed' in parsed && parsed.closed === true) return { channelId, closed: true };
  if ('openUntil' in parsed && typeof parsed.openUntil === 'number')
    return { channelId, openUntil: parsed.openUntil };
  return undefined;
}
