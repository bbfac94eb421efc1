/**
 * Ends of admitted requests, applied in order (Lua, shared by both scripts below): each frees its
 * concurrency leases and corrects the token counters of its admission minute by (reported -
 * estimated) tokens, never below zero.
 * KEYS from `keyBase`: per release, per scope, the token counter and the lease set.
 * ARGV from `argBase`: the release count, then per release its request id, token delta and scope
 * count, then per scope '1' or '0' for "has a token limit" and "has a concurrency limit".
 */
const APPLY_RELEASES = `
local function applyReleases(keyBase, argBase)
  local a = argBase + 1
  local k = keyBase
  for r = 1, tonumber(ARGV[argBase]) do
    local id = ARGV[a]
    local delta = tonumber(ARGV[a + 1])
    local scopes = tonumber(ARGV[a + 2])
    a = a + 3
    for s = 1, scopes do
      if ARGV[a] == '1' and delta ~= 0 and redis.call('EXISTS', KEYS[k]) == 1 then
        if redis.call('INCRBY', KEYS[k], delta) < 0 then redis.call('SET', KEYS[k], 0, 'KEEPTTL') end
      end
      if ARGV[a + 1] == '1' then redis.call('ZREM', KEYS[k + 1], id) end
      a = a + 2
      k = k + 2
    end
  end
end
`;

/**
 * Admission against every Redis-held limit of a request in one round trip (docs/governance.md),
 * after the ends of earlier requests of the same account that were waiting to be sent (their
 * releases ride on this call instead of a round trip of their own).
 *
 * KEYS: per scope (the key, then its account), three keys: the request counter of the current minute,
 * the token counter of the current minute, the sorted set of in-flight leases (member = request id,
 * score = lease expiry); then the releases' keys (APPLY_RELEASES).
 * ARGV: now ms, end of the current minute ms, request id, lease ms, token estimate, scope count, then
 * per scope its requests-per-minute, tokens-per-minute and concurrent-requests limits (0 = none);
 * then the releases (APPLY_RELEASES).
 *
 * Fixed windows on the UTC minute: a counter per minute is exact (60 of 100 admitted means 60), costs
 * one INCR, and gives the limit/remaining/reset the x-ratelimit headers need; its price is that a client
 * may spend two minutes' worth across a minute boundary. Every check runs before any write, so a
 * refused request changes nothing of its own. Leases of dead instances expire by their score.
 *
 * Returns {1, -1, 0, per scope: requests, tokens, in flight (before this request)} when admitted, or
 * {0, scope index, 1|2|3 (requests|tokens|concurrency), requests, tokens, in flight} when refused.
 */
export const ADMIT_SCRIPT = `${APPLY_RELEASES}
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2]) - now + 1000
local id = ARGV[3]
local leaseMs = tonumber(ARGV[4])
local tokens = tonumber(ARGV[5])
local scopes = tonumber(ARGV[6])
applyReleases(scopes * 3 + 1, 7 + scopes * 3)
local figures = {1, -1, 0}
for s = 0, scopes - 1 do
  local rpm = tonumber(ARGV[7 + s * 3])
  local tpm = tonumber(ARGV[8 + s * 3])
  local conc = tonumber(ARGV[9 + s * 3])
  local requests = 0
  local used = 0
  local inFlight = 0
  if rpm > 0 then
    requests = tonumber(redis.call('GET', KEYS[1 + s * 3]) or '0')
    if requests + 1 > rpm then return {0, s, 1, requests, 0, 0} end
  end
  if tpm > 0 then
    used = tonumber(redis.call('GET', KEYS[2 + s * 3]) or '0')
    if used + tokens > tpm then return {0, s, 2, requests, used, 0} end
  end
  if conc > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[3 + s * 3], '-inf', now)
    inFlight = redis.call('ZCARD', KEYS[3 + s * 3])
    if inFlight + 1 > conc then return {0, s, 3, requests, used, inFlight} end
  end
  figures[#figures + 1] = requests
  figures[#figures + 1] = used
  figures[#figures + 1] = inFlight
end
for s = 0, scopes - 1 do
  if tonumber(ARGV[7 + s * 3]) > 0 then
    redis.call('INCR', KEYS[1 + s * 3])
    redis.call('PEXPIRE', KEYS[1 + s * 3], ttl)
  end
  if tonumber(ARGV[8 + s * 3]) > 0 then
    redis.call('INCRBY', KEYS[2 + s * 3], tokens)
    redis.call('PEXPIRE', KEYS[2 + s * 3], ttl)
  end
  if tonumber(ARGV[9 + s * 3]) > 0 then
    redis.call('ZADD', KEYS[3 + s * 3], now + leaseMs, id)
    redis.call('PEXPIRE', KEYS[3 + s * 3], leaseMs)
  end
end
return figures
`;

/** Ends of admitted requests of one account that no admission carried in time (APPLY_RELEASES). */
export const RELEASE_SCRIPT = `${APPLY_RELEASES}
applyReleases(1, 1)
return 1
`;

export type RedisLimitName = 'requestsPerMinute' | 'tokensPerMinute' | 'concurrentRequests';

/** What one scope's counters held before the request. */
export interface ScopeFigures {
  requests: number;
  tokens: number;
  inFlight: number;
}

export type AdmitReply =
  | { admitted: true; figures: ScopeFigures[] }
  | { admitted: false; scope: number; limit: RedisLimitName; figures: ScopeFigures };

const LIMIT_BY_CODE: Record<number, RedisLimitName> = {
  1: 'requestsPerMinute',
  2: 'tokensPerMinute',
  3: 'concurrentRequests',
};

export function parseAdmitReply(reply: unknown): AdmitReply {
  if (!Array.isArray(reply) || reply.length < 3) throw new Error('unexpected rate-limit reply');
  const numbers = reply.map(Number);
  if (numbers.some((value) => !Number.isSafeInteger(value))) throw new Error('unexpected rate-limit reply');
  const [admitted, scope, code] = numbers;
  if (admitted === 0) {
    const limit = LIMIT_BY_CODE[code];
    if (limit === undefined) throw new Error('unexpected rate-limit reply');
    return { admitted: false, scope, limit, figures: figuresAt(numbers, 3) };
  }
  const figures: ScopeFigures[] = [];
  for (let index = 3; index + 2 < numbers.length; index += 3) figures.push(figuresAt(numbers, index));
  return { admitted: true, figures };
}

function figuresAt(numbers: number[], index: number): ScopeFigures {
  return {
    requests: numbers[index] ?? 0,
    tokens: numbers[index + 1] ?? 0,
    inFlight: numbers[index + 2] ?? 0,
  };
}
