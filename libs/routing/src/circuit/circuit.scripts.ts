/**
 * Lua scripts: each state change reads and writes the shared state atomically, so two instances
 * reporting at once cannot both open (or both close) a circuit.
 *
 * Both return { outcome, openUntil }; see CircuitScriptOutcome.
 */

/**
 * KEYS: failures counter, open-circuits hash, probe key.
 * ARGV: channel id, now, window ms, threshold, cool-down ms, events channel.
 * A failure while cooling down is late news from a request that started before the opening: ignored.
 * A failure after the cool-down is the probe failing: the circuit opens again.
 */
export const RECORD_FAILURE_SCRIPT = `
local now = tonumber(ARGV[2])
local openUntil = redis.call('HGET', KEYS[2], ARGV[1])
if openUntil and now < tonumber(openUntil) then
  return {2, tonumber(openUntil)}
end
if not openUntil then
  local failures = redis.call('INCR', KEYS[1])
  if failures == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  if failures < tonumber(ARGV[4]) then return {0, 0} end
end
local openedUntil = now + tonumber(ARGV[5])
redis.call('HSET', KEYS[2], ARGV[1], openedUntil)
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('PUBLISH', ARGV[6], cjson.encode({channelId = ARGV[1], openUntil = openedUntil}))
return {1, openedUntil}
`;

/**
 * KEYS: open-circuits hash, probe key, failures counter.
 * ARGV: channel id, now, events channel.
 * A success after the cool-down (the probe) closes the circuit; a success while cooling down is late
 * news from before the opening and changes nothing.
 */
export const RECORD_SUCCESS_SCRIPT = `
local openUntil = redis.call('HGET', KEYS[1], ARGV[1])
if not openUntil then return {0, 0} end
if tonumber(ARGV[2]) < tonumber(openUntil) then return {2, tonumber(openUntil)} end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[3], cjson.encode({channelId = ARGV[1], closed = true}))
return {1, 0}
`;

/** 0: nothing changed (closed), 1: this call changed the state, 2: the circuit is cooling down. */
export type CircuitScriptOutcome = 0 | 1 | 2;

export interface CircuitScriptResult {
  outcome: CircuitScriptOutcome;
  /** End of the cool-down when the circuit is open (outcomes 1 of a failure, and 2). */
  openUntil: number;
}

export function parseCircuitScriptResult(reply: unknown): CircuitScriptResult {
  if (!Array.isArray(reply) || reply.length !== 2) throw new Error('unexpected circuit script reply');
  const [outcome, openUntil] = reply.map(Number);
  if ((outcome !== 0 && outcome !== 1 && outcome !== 2) || !Number.isFinite(openUntil)) {
    throw new Error('unexpected circuit script reply');
  }
  return { outcome, openUntil };
}
