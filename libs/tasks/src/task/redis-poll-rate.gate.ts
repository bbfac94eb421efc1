import type { RedisConnection } from '@gateway/redis';
import type { PollRateGate, TaskStepLogger } from './task-step.types';

/**
 * A token bucket per channel in its generic-cell form (GCRA): one key holds the time at which the
 * channel's bucket is full again ("theoretical arrival time"). Every call books the next turn and
 * answers how far away it is, so polls that must wait are spaced one interval apart instead of all
 * retrying at once. A bucket holds one second of polls, so a channel idle for a second may poll that
 * many at once. Redis's own clock, so workers on skewed clocks share one schedule. One key per script
 * call, and one round trip.
 *
 * KEYS[1]: the channel's bucket. ARGV[1]: interval between polls (µs); ARGV[2]: burst tolerance (µs).
 * Returns the wait before the booked turn, in milliseconds (0: poll now).
 */
const RESERVE_TURN_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - tolerance - now
if wait < 0 then wait = 0 end
local nextTat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', math.ceil((nextTat - now) / 1000) + 1000)
return math.ceil(wait / 1000)
`;

/**
 * The bucket's key, under the configured prefix: the channel id is the hash tag, so each channel's
 * bucket has its slot on a Redis Cluster and the script's one key always lives on one node.
 */
export function pollRateKey(prefix: string, channelId: string): string {
  return `${prefix}:poll-rate:{${channelId}}`;
}

export class RedisPollRateGate implements PollRateGate {
  constructor(
    /** Asked at the first poll of a channel with a ceiling: a worker without one opens no connection. */
    private readonly redis: () => RedisConnection,
    private readonly prefix: string,
    private readonly logger: Pick<TaskStepLogger, 'warn'>,
  ) {}

  async reserve(channelId: string, pollsPerSecond: number): Promise<number> {
    if (!(pollsPerSecond > 0)) return 0;
    const intervalUs = Math.max(1, Math.round(1_000_000 / pollsPerSecond));
    const burst = Math.max(1, Math.floor(pollsPerSecond));
    try {
      const reply = await this.redis().eval(
        RESERVE_TURN_SCRIPT,
        1,
        pollRateKey(this.prefix, channelId),
        intervalUs,
        (burst - 1) * intervalUs,
      );
      return typeof reply === 'number' ? reply : Number(reply);
    } catch (error) {
      // The gate spaces polls, it does not guard correctness: without Redis the poll goes ahead (the
      // queue itself is stalled then anyway), and an upstream's rate limit answer is a passing failure.
      this.logger.warn({ channelId, error: String(error) }, 'poll-rate gate not reached; polling now');
      return 0;
    }
  }
}
