import type { GovernanceLimits } from '@gateway/auth';
import type { ScopeCounts } from './rate-limit.script';

/** What one request takes of one scope: a request, its token estimate, a slot (each 0 when no limit). */
export type ScopeTake = ScopeCounts;

/** A change to send to Redis for one scope (APPLY_CHANGES of rate-limit.script.ts). */
export type AllowanceChange =
  | { readonly kind: 'requests' | 'tokens'; readonly window: number; readonly delta: number }
  | { readonly kind: 'release-slots' | 'renew-slots'; readonly slots: readonly string[] };

/** The smallest grant (in requests' worth) that is refilled before it runs out. */
const REFILL_FLOOR = 8;

/** What one scope's counters held before the request, as this instance knows them (the headers). */
export interface ScopeFigures {
  requests: number;
  tokens: number;
}

// perf-machinery: local-allowances (docs/performance-machinery.md)
/**
 * What this instance holds of one scope's Redis-kept limits (docs/governance.md, "Allowances"):
 * requests and tokens of the current minute and concurrency slots that it took from Redis and has not
 * used yet. A request that its allowance covers is admitted without a round trip. Redis gives at most
 * 1/share of what remains of a limit, so near a limit there is no allowance and every request is
 * counted in Redis as it comes, exactly.
 *
 * The counts never go past a limit: what an instance holds is counted in Redis when it takes it. The
 * price is on the other side: what one instance holds unused, another cannot use until it is given
 * back (after a lease tick without a request of the scope on this instance), and the admin figures
 * count it as taken meanwhile.
 */
export class ScopeAllowance {
  /** The minute (its start, ms) of the request and token figures below. */
  private window = 0;
  /** The Redis counters after this instance last took from them, and what it holds unused of them. */
  private requestsCounted = 0;
  private requestsHeld = 0;
  private tokensCounted = 0;
  /** May be negative: usage reported beyond the estimates, not yet sent. */
  private tokensHeld = 0;
  /** The extra tokens Redis gave last: what this instance keeps unused before giving tokens back. */
  private tokensKept = 0;
  /** The extra requests Redis gave last (the size of the allowance being spent). */
  private requestsGranted = 0;
  /** Slot ids this instance holds in Redis, in use or not. */
  private slots: string[] = [];
  private slotsInUse = 0;
  private slotsKept = 0;
  private takenSinceTick = false;
  private renewDue = false;
  private idleDue = false;

  /** Starts the figures of a new minute: what was held of the last one is worth nothing now. */
  enter(window: number): void {
    if (window <= this.window) return;
    this.window = window;
    this.requestsCounted = 0;
    this.requestsHeld = 0;
    this.tokensCounted = 0;
    this.tokensHeld = 0;
    this.tokensKept = 0;
    this.requestsGranted = 0;
  }

  /** Whether the allowance covers one request whole, so that it needs no round trip. */
  covers(limits: GovernanceLimits, tokens: number): boolean {
    return (
      (!limits.requestsPerMinute || this.requestsHeld > 0) &&
      (!limits.tokensPerMinute || tokens === 0 || this.tokensHeld >= tokens) &&
      (!limits.concurrentRequests || this.slotsInUse < this.slots.length)
    );
  }

  // perf-machinery: allowance-refill (docs/performance-machinery.md)
  /**
   * Whether to take the next allowance before this one runs out (RedisLimiter's refill): a quarter or
   * less is left of a grant of at least REFILL_FLOOR requests' worth, of requests, tokens or slots. A
   * scope near its limits gets smaller grants (a share of what remains), so it is never refilled
   * ahead and each of its requests is counted in Redis as it comes.
   */
  runningLow(limits: GovernanceLimits, tokens: number): boolean {
    return this.requestsLow(limits) || this.tokensLow(limits, tokens) || this.slotsLow(limits);
  }

  /**
   * What a refill asks Redis for, as for one more request: only of what runs low (Redis adds its
   * share only to what is asked), so that slots are not taken and given back with every refill.
   */
  refillNeed(limits: GovernanceLimits, tokens: number): ScopeTake {
    return {
      requests: this.requestsLow(limits) ? 1 : 0,
      tokens: this.tokensLow(limits, tokens) ? tokens : 0,
      slots: this.slotsLow(limits) ? 1 : 0,
    };
  }

  private requestsLow(limits: GovernanceLimits): boolean {
    return (
      !!limits.requestsPerMinute &&
      this.requestsGranted >= REFILL_FLOOR &&
      this.requestsHeld * 4 <= this.requestsGranted
    );
  }

  private tokensLow(limits: GovernanceLimits, tokens: number): boolean {
    return (
      !!limits.tokensPerMinute &&
      tokens > 0 &&
      this.tokensKept >= REFILL_FLOOR * tokens &&
      this.tokensHeld * 4 <= this.tokensKept
    );
  }

  private slotsLow(limits: GovernanceLimits): boolean {
    return (
      !!limits.concurrentRequests &&
      this.slotsKept >= REFILL_FLOOR &&
      (this.slots.length - this.slotsInUse) * 4 <= this.slotsKept
    );
  }

  /** Takes one request that `covers` said the allowance covers (take without its two result objects). */
  takeCovered(limits: GovernanceLimits, tokens: number): void {
    this.takenSinceTick = true;
    if (limits.requestsPerMinute) this.requestsHeld -= 1;
    if (limits.tokensPerMinute) this.tokensHeld -= tokens;
    if (limits.concurrentRequests) this.slotsInUse += 1;
  }

  /** Takes what the allowance covers of one request; returns what must come from Redis. */
  take(limits: GovernanceLimits, tokens: number): { local: ScopeTake; need: ScopeTake } {
    this.takenSinceTick = true;
    const local = { requests: 0, tokens: 0, slots: 0 };
    const need = { requests: 0, tokens: 0, slots: 0 };
    if (limits.requestsPerMinute) {
      if (this.requestsHeld > 0) local.requests = 1;
      else need.requests = 1;
      this.requestsHeld -= local.requests;
    }
    if (limits.tokensPerMinute) {
      local.tokens = Math.max(0, Math.min(this.tokensHeld, tokens));
      need.tokens = tokens - local.tokens;
      this.tokensHeld -= local.tokens;
    }
    if (limits.concurrentRequests) {
      if (this.slotsInUse < this.slots.length) local.slots = 1;
      else need.slots = 1;
      this.slotsInUse += 1;
    }
    return { local, need };
  }

  /**
   * Gives back what `take` took for a request of `window`: the request was refused, or admitted
   * without its limits.
   */
  undo(window: number, take: { local: ScopeTake; need: ScopeTake }): void {
    this.slotsInUse -= take.local.slots + take.need.slots;
    if (window !== this.window) return;
    this.requestsHeld += take.local.requests;
    this.tokensHeld += take.local.tokens;
  }

  /**
   * Records what Redis gave for a request of `window` (`counts` after the call, `taken` including what
   * the request needed) and the ids of the slots it gave.
   */
  grant(window: number, need: ScopeTake, counts: ScopeCounts, taken: ScopeTake, slots: string[]): void {
    this.slots.push(...slots);
    if (taken.slots > 0) this.slotsKept = taken.slots - need.slots;
    if (window !== this.window) return;
    if (taken.requests > 0) {
      this.requestsCounted = Math.max(this.requestsCounted, counts.requests);
      this.requestsHeld += taken.requests - need.requests;
      this.requestsGranted = taken.requests - need.requests;
    }
    if (taken.tokens > 0) {
      this.tokensCounted = Math.max(this.tokensCounted, counts.tokens);
      this.tokensHeld += taken.tokens - need.tokens;
      this.tokensKept = taken.tokens - need.tokens;
    }
  }

  /** The counters before a request just admitted of `tokens`, as far as this instance knows them. */
  figures(tokens: number): ScopeFigures {
    return {
      requests: this.requestsCounted - this.requestsHeld - 1,
      tokens: this.tokensCounted - this.tokensHeld - tokens,
    };
  }

  /**
   * A request admitted in `window` ended: frees its slot and corrects its tokens by `tokenDelta`.
   * True when Redis now has something to learn (what `changes` would send).
   */
  end(limits: GovernanceLimits, window: number, tokenDelta: number): boolean {
    if (limits.concurrentRequests) this.slotsInUse -= 1;
    // A correction of a past minute is dropped: that minute's counter admits nothing any more.
    if (limits.tokensPerMinute && window === this.window) this.tokensHeld -= tokenDelta;
    return this.hasChanges();
  }

  /**
   * The allowance tick: without a request since the last one, all that is held unused goes back; with
   * `renew` (every quarter of the lease), the held slots are renewed. True when there are changes.
   */
  tick(renew: boolean): boolean {
    const unused = this.requestsHeld > 0 || this.tokensHeld !== 0 || this.slots.length > this.slotsInUse;
    if (!this.takenSinceTick && unused) this.idleDue = true;
    if (renew && this.slots.length > 0) this.renewDue = true;
    this.takenSinceTick = false;
    return this.idleDue || this.renewDue;
  }

  /** Whether `changes()` would send anything (by the same three figures). */
  private hasChanges(): boolean {
    const everything = this.idleDue;
    return (
      (everything && this.requestsHeld > 0) ||
      this.tokenCorrection(everything) !== 0 ||
      this.spareSlots(everything) > 0 ||
      (this.renewDue && this.slots.length > 0)
    );
  }

  /**
   * Tokens to add to the counter: usage beyond the estimates (held below 0), or what is held beyond
   * the extra it keeps, given back only past twice that (so that small refunds do not each cost a
   * round trip); 0 when nothing is due.
   */
  private tokenCorrection(everything: boolean): number {
    const keptTokens = everything ? 0 : this.tokensKept;
    if (this.tokensHeld < 0) return -this.tokensHeld;
    return this.tokensHeld > 2 * keptTokens ? keptTokens - this.tokensHeld : 0;
  }

  /** Slots held unused beyond the extra the allowance keeps. */
  private spareSlots(everything: boolean): number {
    return this.slots.length - this.slotsInUse - (everything ? 0 : this.slotsKept);
  }

  /**
   * What to send Redis now: usage reported beyond the estimates; tokens and slots held beyond what the
   * last grant gave as extra (tokens only past twice that, so that small refunds do not each cost a
   * round trip); everything held unused when idle (or with `all`, at shutdown); the renewal of held
   * slots when due.
   */
  changes(all = false): AllowanceChange[] {
    const everything = all || this.idleDue;
    const changes: AllowanceChange[] = [];
    if (everything && this.requestsHeld > 0) {
      changes.push({ kind: 'requests', window: this.window, delta: -this.requestsHeld });
      this.requestsCounted -= this.requestsHeld;
      this.requestsHeld = 0;
    }
    const delta = this.tokenCorrection(everything);
    if (delta !== 0) {
      changes.push({ kind: 'tokens', window: this.window, delta });
      this.tokensCounted += delta;
      this.tokensHeld += delta;
    }
    const spare = this.spareSlots(everything);
    if (spare > 0) changes.push({ kind: 'release-slots', slots: this.slots.splice(0, spare) });
    if (this.renewDue && this.slots.length > 0) changes.push({ kind: 'renew-slots', slots: [...this.slots] });
    this.renewDue = false;
    this.idleDue = false;
    return changes;
  }

  /** Nothing held and nothing of the current minute: the allowance may be forgotten. */
  emptyBefore(window: number): boolean {
    return this.slots.length === 0 && this.window < window;
  }
}
