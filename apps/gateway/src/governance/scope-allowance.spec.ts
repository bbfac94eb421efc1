import { ScopeAllowance } from './scope-allowance';

const WINDOW = 1_800_000_000_000;
const ALL = { requestsPerMinute: 1000, tokensPerMinute: 100_000, concurrentRequests: 100 };

/** An allowance that took, for its first request of 100 tokens, `extra` more of each. */
function allowanceWith(extra: { requests: number; tokens: number; slots: number }): ScopeAllowance {
  const allowance = new ScopeAllowance();
  allowance.enter(WINDOW);
  const { need } = allowance.take(ALL, 100);
  expect(need).toEqual({ requests: 1, tokens: 100, slots: 1 });
  const taken = { requests: 1 + extra.requests, tokens: 100 + extra.tokens, slots: 1 + extra.slots };
  const slots = Array.from({ length: taken.slots }, (_, index) => `slot-${index}`);
  allowance.grant(
    WINDOW,
    need,
    { requests: 10 + taken.requests, tokens: taken.tokens, slots: taken.slots },
    taken,
    slots,
  );
  return allowance;
}

describe('ScopeAllowance', () => {
  it('covers requests from what it took until it runs out, then asks Redis for the rest', () => {
    const allowance = allowanceWith({ requests: 2, tokens: 150, slots: 2 });
    expect(allowance.take(ALL, 100).need).toEqual({ requests: 0, tokens: 0, slots: 0 });
    // 2 requests, 50 tokens and 1 slot left: the tokens fall 50 short, the slot is covered.
    expect(allowance.take(ALL, 100).need).toEqual({ requests: 0, tokens: 50, slots: 0 });
    expect(allowance.take(ALL, 100).need).toEqual({ requests: 1, tokens: 100, slots: 1 });
  });

  it('reports the counters as this instance knows them: exact while it is the only one', () => {
    const allowance = allowanceWith({ requests: 5, tokens: 500, slots: 0 });
    // 10 requests counted by others, then this instance's first request: 11 before the next one.
    expect(allowance.figures(100)).toEqual({ requests: 10, tokens: 0 });
    allowance.take(ALL, 100);
    expect(allowance.figures(100)).toEqual({ requests: 11, tokens: 100 });
  });

  it('gives back a refused request, and a correction of a past minute changes nothing', () => {
    const allowance = allowanceWith({ requests: 1, tokens: 0, slots: 0 });
    const take = allowance.take({ requestsPerMinute: 1000 }, 0);
    expect(take.local.requests).toBe(1);
    allowance.undo(WINDOW, take);
    expect(allowance.take({ requestsPerMinute: 1000 }, 0).need.requests).toBe(0);
    expect(allowance.end({ tokensPerMinute: 100_000 }, WINDOW - 60_000, 5_000)).toBe(false);
    expect(allowance.changes()).toEqual([]);
  });

  it('sends usage beyond the estimates, and gives refunds back only past twice the extra it keeps', () => {
    const allowance = allowanceWith({ requests: 0, tokens: 100, slots: 0 });
    // end() says whether there is something to send, by the figures changes() sends by.
    expect(allowance.end({ tokensPerMinute: 100_000 }, WINDOW, 300)).toBe(true);
    // 100 held, 300 more used: 200 owed to the counter.
    expect(allowance.changes()).toEqual([{ kind: 'tokens', window: WINDOW, delta: 200 }]);
    expect(allowance.end({ tokensPerMinute: 100_000 }, WINDOW, -150)).toBe(false);
    expect(allowance.changes()).toEqual([]);
    expect(allowance.end({ tokensPerMinute: 100_000 }, WINDOW, -100)).toBe(true);
    expect(allowance.changes()).toEqual([{ kind: 'tokens', window: WINDOW, delta: -150 }]);
  });

  it('frees slots beyond the extra it keeps, renews held ones, and gives all back once idle', () => {
    const allowance = allowanceWith({ requests: 3, tokens: 0, slots: 1 });
    expect(allowance.end({ concurrentRequests: 100 }, WINDOW, 0)).toBe(true);
    expect(allowance.changes()).toEqual([{ kind: 'release-slots', slots: ['slot-0'] }]);
    expect(allowance.tick(true)).toBe(true);
    expect(allowance.changes()).toEqual([{ kind: 'renew-slots', slots: ['slot-1'] }]);
    // A tick with no request since the one before: everything unused goes back.
    expect(allowance.tick(false)).toBe(true);
    expect(allowance.changes()).toEqual([
      { kind: 'requests', window: WINDOW, delta: -3 },
      { kind: 'release-slots', slots: ['slot-1'] },
    ]);
    expect(allowance.tick(false)).toBe(false);
    expect(allowance.emptyBefore(WINDOW + 60_000)).toBe(true);
  });

  it('covers a request whole exactly when take would need nothing from Redis, and takes the same', () => {
    const covered = allowanceWith({ requests: 2, tokens: 150, slots: 2 });
    const taken = allowanceWith({ requests: 2, tokens: 150, slots: 2 });
    expect(covered.covers(ALL, 100)).toBe(true);
    covered.takeCovered(ALL, 100);
    expect(taken.take(ALL, 100).need).toEqual({ requests: 0, tokens: 0, slots: 0 });
    expect(covered.figures(100)).toEqual(taken.figures(100));
    // 50 tokens left: a request of 100 is not covered; one without tokens is.
    expect(covered.covers(ALL, 100)).toBe(false);
    expect(taken.take(ALL, 100).need.tokens).toBe(50);
    expect(covered.covers(ALL, 0)).toBe(true);
    // A limit the scope does not have never needs its allowance.
    expect(new ScopeAllowance().covers({}, 100)).toBe(true);
    expect(new ScopeAllowance().covers({ concurrentRequests: 1 }, 0)).toBe(false);
  });

  it('a new minute starts with no requests or tokens held of the last one; slots outlive minutes', () => {
    const allowance = allowanceWith({ requests: 5, tokens: 500, slots: 1 });
    allowance.enter(WINDOW + 60_000);
    expect(allowance.take(ALL, 100).need).toEqual({ requests: 1, tokens: 100, slots: 0 });
  });

  it('runs low at a quarter of a large grant, and never for a small one (near a limit)', () => {
    const large = allowanceWith({ requests: 64, tokens: 6400, slots: 0 });
    for (let request = 0; request < 47; request += 1) large.takeCovered(ALL, 100);
    // 17 requests and 1,700 tokens left of 64 and 6,400.
    expect(large.runningLow(ALL, 100)).toBe(false);
    large.takeCovered(ALL, 100);
    expect(large.runningLow(ALL, 100)).toBe(true);
    // Asked only of what runs low: it took no spare slots, so it asks none.
    expect(large.refillNeed(ALL, 100)).toEqual({ requests: 1, tokens: 100, slots: 0 });

    const small = allowanceWith({ requests: 7, tokens: 700, slots: 0 });
    for (let request = 0; request < 7; request += 1) small.takeCovered(ALL, 100);
    expect(small.runningLow(ALL, 100)).toBe(false);
  });
});
