import { UpstreamError } from '@gateway/providers-core';
import type { ChannelCandidate } from '../channel/channel-candidate';
import type { CircuitBreaker } from '../circuit/circuit-breaker';
import { FailoverExhaustedError, withChannelFailover } from './channel-failover';

function channel(name: string, priority: number): ChannelCandidate {
  return {
    id: `ch_${name}`,
    name,
    type: 'kappa',
    connection: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'secret' }, settings: {} },
    upstreamModel: name,
    priority,
    weight: 1,
  };
}

/** A breaker with every circuit closed that remembers what it was told. */
function closedBreaker(): CircuitBreaker & { failures: string[] } {
  const failures: string[] = [];
  return {
    failures,
    isAvailable: async () => true,
    recordSuccess: async () => undefined,
    recordFailure: async (channelId: string) => {
      failures.push(channelId);
    },
  } as unknown as CircuitBreaker & { failures: string[] };
}

const overloaded = () =>
  new UpstreamError({ kind: 'overload', httpStatus: 503, message: 'busy', retryable: true });

describe('withChannelFailover', () => {
  const first = channel('first', 3);
  const second = channel('second', 2);
  const third = channel('third', 1);

  it('passes over a candidate the request cannot be sent to, without attempting or counting it', async () => {
    const tried: string[] = [];
    const asked: string[] = [];
    const breaker = closedBreaker();
    const result = await withChannelFailover(
      [first, second, third],
      {
        breaker,
        maxAttempts: 2,
        canServe: (candidate) => {
          asked.push(candidate.name);
          return candidate !== second;
        },
      },
      async (candidate) => {
        tried.push(candidate.name);
        if (candidate === first) throw overloaded();
        return candidate.name;
      },
    );

    expect(result.value).toBe('third');
    expect(tried).toEqual(['first', 'third']);
    expect(result.attempts.map((attempt) => attempt.channelId)).toEqual(['ch_first', 'ch_third']);
    expect(asked).toEqual(['first', 'second', 'third']);
    expect(breaker.failures).toEqual(['ch_first']);
  });

  it('asks about a candidate only when its turn comes', async () => {
    const asked: string[] = [];
    const result = await withChannelFailover(
      [first, second],
      {
        breaker: closedBreaker(),
        maxAttempts: 3,
        canServe: (candidate) => {
          asked.push(candidate.name);
          return true;
        },
      },
      async (candidate) => candidate.name,
    );

    expect(result.value).toBe('first');
    expect(asked).toEqual(['first']);
  });

  it('passes over an open circuit answered at once and a probe a half-open one does not win', async () => {
    // The breaker answers a plain boolean for closed and open circuits, a promise for a probe claim.
    const answers: Record<string, boolean | Promise<boolean>> = {
      ch_first: false,
      ch_second: Promise.resolve(false),
      ch_third: Promise.resolve(true),
    };
    const breaker = { ...closedBreaker(), isAvailable: (channelId: string) => answers[channelId] };
    const tried: string[] = [];
    const result = await withChannelFailover(
      [first, second, third],
      { breaker: breaker as unknown as CircuitBreaker, maxAttempts: 3 },
      async (candidate) => {
        tried.push(candidate.name);
        return candidate.name;
      },
    );

    expect(result.value).toBe('third');
    expect(tried).toEqual(['third']);
    expect(result.attempts.map((attempt) => attempt.channelId)).toEqual(['ch_third']);
  });

  it('ends as unavailable when no candidate could be sent the request', async () => {
    const failing = withChannelFailover(
      [first, second],
      { breaker: closedBreaker(), maxAttempts: 3, canServe: () => false },
      async () => 'never',
    );

    await expect(failing).rejects.toBeInstanceOf(FailoverExhaustedError);
    await expect(failing).rejects.toMatchObject({ code: 'service_unavailable', attempts: [] });
  });
});
