/**
 * Changes an instance sends for what it holds of one account's limits (Lua, shared by both scripts
 * below), applied in order. Each names one key (KEYS from `keyBase`, one per change) and reads its
 * ARGV from `argBase`: the change count, then per change its kind and arguments:
 * - 'n', delta: corrects a request or token counter by delta (usage reported beyond what was taken,
 *   or what an instance gives back), never below zero, only while the counter lives (its minute);
 * - 'z', n, n members: gives slots back (removes them from the lease set);
 * - 'r', expiry, ttl, n, n members: renews held slots (new score for members still there).
 */
const APPLY_CHANGES = `
local function applyChanges(keyBase, argBase)
  local a = argBase + 1
  for c = 0, tonumber(ARGV[argBase]) - 1 do
    local key = KEYS[keyBase + c]
    local kind = ARGV[a]
    if kind == 'n' then
      local delta = tonumber(ARGV[a + 1])
      if redis.call('EXISTS', key) == 1 and redis.call('INCRBY', key, delta) < 0 then
        redis.call('SET', key, 0, 'KEEPTTL')
      end
      a = a + 2
    elseif kind == 'z' then
      local n = tonumber(ARGV[a + 1])
      redis.call('ZREM', key, unpack(ARGV, a + 2, a + 1 + n))
      a = a + 2 + n
    else
      local expiry = ARGV[a + 1]
      local n = tonumber(ARGV[a + 3])
      local scored = {}
      for m = 1, n do
        scored[#scored + 1] = expiry
        scored[#scored + 1] = ARGV[a + 3 + m]
      end
      redis.call('ZADD', key, 'XX', unpack(scored))
      redis.call('PEXPIRE', key, ARGV[a + 2])
      a = a + 4 + n
    end
  end
end
`;

/** Arguments of ADMIT_SCRIPT before its scopes. */
export const ADMIT_HEAD_ARGS = 8;
/** Arguments of ADMIT_SCRIPT per scope. */
export const ADMIT_SCOPE_ARGS = 8;

/**
 * Admission in one round trip (docs/governance.md): takes from Redis what the instance's own
 * allowance (scope-allowance.ts) could not supply, for every scope of the request, plus a share of
 * what remains to serve the instance's next requests without a round trip. The account's pending
 * changes (APPLY_CHANGES) ride along and are applied first.
 *
 * KEYS: per scope (the key, then its account), three keys: the request counter of the current minute,
 * the token counter of the current minute, the sorted set of held slots (member: slot id, score:
 * lease expiry); then one key per change.
 * ARGV: now ms, end of the current minute ms, lease ms, share, the most extra requests and extra slots
 * one call takes, the instance's slot id prefix, the scope count; then per scope: its
 * requests-per-minute, tokens-per-minute and concurrent-requests limits (0 = none), the requests (0|1),
 * tokens and slots (0|1) the request needs from Redis, the most extra tokens to take, the sequence
 * number of the first new slot id; then the changes.
 *
 * Fixed windows on the UTC minute: a counter per minute is exact (60 of 100 admitted means 60), costs
 * one INCRBY, and gives the limit/remaining/reset the x-ratelimit headers need; its price is that a
 * client may spend two minutes' worth across a minute boundary. Every check runs before any write, so a
 * refused request takes nothing. The extra taken is at most 1/share of what remains after the request,
 * so it is nothing near a limit (every request is then counted in Redis as it comes) and can never take
 * the count past the limit. Slots of dead instances expire by their score.
 *
 * Returns {1, -1, 0, per scope: requests, tokens, slots held (after this call), then requests, tokens
 * and slots taken} when admitted, or {0, scope index, 1|2|3 (requests|tokens|concurrency), requests,
 * tokens, slots held} when refused.
 */
export const ADMIT_SCRIPT = `${APPLY_CHANGES}
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2]) - now + 1000
local leaseMs = tonumber(ARGV[3])
local share = tonumber(ARGV[4])
local requestCap = tonumber(ARGV[5])
local slotCap = tonumber(ARGV[6])
local slotPrefix = ARGV[7]
local scopes = tonumber(ARGV[8])
applyChanges(scopes * 3 + 1, ${ADMIT_HEAD_ARGS} + 1 + scopes * ${ADMIT_SCOPE_ARGS})
local function extra(limit, used, need, cap)
  if need == 0 or cap <= 0 then return 0 end
  return math.min(cap, math.floor((limit - used - need) / share))
end
local counts = {}
for s = 0, scopes - 1 do
  local a = ${ADMIT_HEAD_ARGS} + 1 + s * ${ADMIT_SCOPE_ARGS}
  local requests = 0
  local used = 0
  local held = 0
  if tonumber(ARGV[a]) > 0 then
    requests = tonumber(redis.call('GET', KEYS[1 + s * 3]) or '0')
    if requests + tonumber(ARGV[a + 3]) > tonumber(ARGV[a]) then return {0, s, 1, requests, 0, 0} end
  end
  if tonumber(ARGV[a + 1]) > 0 then
    used = tonumber(redis.call('GET', KEYS[2 + s * 3]) or '0')
    if used + tonumber(ARGV[a + 4]) > tonumber(ARGV[a + 1]) then return {0, s, 2, requests, used, 0} end
  end
  if tonumber(ARGV[a + 2]) > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[3 + s * 3], '-inf', now)
    held = redis.call('ZCARD', KEYS[3 + s * 3])
    if held + tonumber(ARGV[a + 5]) > tonumber(ARGV[a + 2]) then return {0, s, 3, requests, used, held} end
  end
  counts[s] = {requests, used, held}
end
local reply = {1, -1, 0}
local taken = {}
for s = 0, scopes - 1 do
  local a = ${ADMIT_HEAD_ARGS} + 1 + s * ${ADMIT_SCOPE_ARGS}
  local requests, used, held = counts[s][1], counts[s][2], counts[s][3]
  local needRequests = tonumber(ARGV[a + 3])
  local needTokens = tonumber(ARGV[a + 4])
  local needSlots = tonumber(ARGV[a + 5])
  local takeRequests = needRequests + extra(tonumber(ARGV[a]), requests, needRequests, requestCap)
  local takeTokens = needTokens + extra(tonumber(ARGV[a + 1]), used, needTokens, tonumber(ARGV[a + 6]))
  local takeSlots = needSlots + extra(tonumber(ARGV[a + 2]), held, needSlots, slotCap)
  if takeRequests > 0 then
    requests = redis.call('INCRBY', KEYS[1 + s * 3], takeRequests)
    redis.call('PEXPIRE', KEYS[1 + s * 3], ttl)
  end
  if takeTokens > 0 then
    used = redis.call('INCRBY', KEYS[2 + s * 3], takeTokens)
    redis.call('PEXPIRE', KEYS[2 + s * 3], ttl)
  end
  if takeSlots > 0 then
    local first = tonumber(ARGV[a + 7])
    local scored = {}
    for i = 0, takeSlots - 1 do
      scored[#scored + 1] = now + leaseMs
      scored[#scored + 1] = slotPrefix .. (first + i)
    end
    redis.call('ZADD', KEYS[3 + s * 3], unpack(scored))
    redis.call('PEXPIRE', KEYS[3 + s * 3], leaseMs)
    held = held + takeSlots
  end
  reply[#reply + 1] = requests
  reply[#reply + 1] = used
  reply[#reply + 1] = held
  taken[#taken + 1] = takeRequests
  taken[#taken + 1] = takeTokens
  taken[#taken + 1] = takeSlots
end
for _, value in ipairs(taken) do reply[#reply + 1] = value end
return reply
`;

/** Changes of one account that no admission carried in time (APPLY_CHANGES). */
export const CHANGES_SCRIPT = `${APPLY_CHANGES}
applyChanges(1, 1)
return 1
`;

export type RedisLimitName = 'requestsPerMinute' | 'tokensPerMinute' | 'concurrentRequests';

/** One scope's counters in Redis: requests and tokens of the minute, slots held by every instance. */
export interface ScopeCounts {
  requests: number;
  tokens: number;
  slots: number;
}

export type AdmitReply =
  | { admitted: true; counts: ScopeCounts[]; taken: ScopeCounts[] }
  | { admitted: false; scope: number; limit: RedisLimitName; counts: ScopeCounts };

const LIMIT_BY_CODE: Record<number, RedisLimitName> = {
  1: 'requestsPerMinute',
  2: 'tokensPerMinute',
  3: 'concurrentRequests',
};

export function parseAdmitReply(reply: unknown, scopes: number): AdmitReply {
  if (!Array.isArray(reply) || reply.length < 3) throw new Error('unexpected rate-limit reply');
  const numbers = reply.map(Number);
  if (numbers.some((value) => !Number.isSafeInteger(value))) throw new Error('unexpected rate-limit reply');
  const [admitted, scope, code] = numbers;
  if (admitted === 0) {
    const limit = LIMIT_BY_CODE[code];
    if (limit === undefined || numbers.length !== 6) throw new Error('unexpected rate-limit reply');
    return { admitted: false, scope, limit, counts: countsAt(numbers, 3) };
  }
  if (numbers.length !== 3 + scopes * 6) throw new Error('unexpected rate-limit reply');
  const counts: ScopeCounts[] = [];
  const taken: ScopeCounts[] = [];
  for (let index = 0; index < scopes; index += 1) {
    counts.push(countsAt(numbers, 3 + index * 3));
    taken.push(countsAt(numbers, 3 + scopes * 3 + index * 3));
  }
  return { admitted: true, counts, taken };
}

function countsAt(numbers: number[], index: number): ScopeCounts {
  return {
    requests: numbers[index] ?? 0,
    tokens: numbers[index + 1] ?? 0,
    slots: numbers[index + 2] ?? 0,
  };
}
