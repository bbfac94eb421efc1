/**
 * KEYS: the subject's failure counter. ARGV: window ms.
 * Counts one failure in a fixed window that starts with the first one, in one step, so that instances
 * counting at once never lose a failure nor leave a counter without its expiry.
 * Returns { failures in the window, milliseconds left in it }.
 */
export const COUNT_FAILURE_SCRIPT = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {failures, redis.call('PTTL', KEYS[1])}
`;

export interface CountedFailures {
  failures: number;
  windowLeftMs: number;
}

export function parseCountedFailures(reply: unknown): CountedFailures {
  if (!Array.isArray(reply) || reply.length !== 2) throw new Error('unexpected failure-count reply');
  const [failures, windowLeftMs] = reply.map(Number);
  if (!Number.isSafeInteger(failures) || !Number.isSafeInteger(windowLeftMs)) {
    throw new Error('unexpected failure-count reply');
  }
  return { failures, windowLeftMs };
}
