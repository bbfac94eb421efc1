import { randomBytes } from 'node:crypto';
import { boundedCommand, type RedisConnection } from '@gateway/redis';
import type { GovernanceLimits } from '@gateway/auth';
import type { Clock } from '@gateway/providers-core';
import {
  ADMIT_SCRIPT,
  CHANGES_SCRIPT,
  parseAdmitReply,
  type AdmitReply,
  type RedisLimitName,
  type ScopeCounts,
} from './rate-limit.script';
import { ScopeAllowance, type AllowanceChange, type ScopeFigures, type ScopeTake } from './scope-allowance';

/** A scope whose limits Redis keeps: a key on its own, or its account (all its keys together). */
export interface LimitScope {
  readonly kind: 'key' | 'account';
  readonly id: string;
  readonly limits: GovernanceLimits;
}

export interface LimitRequest {
  readonly accountId: string;
  readonly scopes: readonly LimitScope[];
  /** The token estimate at admission; 0 where no token limit applies. */
  readonly tokens: number;
  readonly now: number;
}

export type LimitVerdict =
  /** With, per scope, its counters before this request as this instance knows them. */
  | { readonly kind: 'admitted'; readonly figures: readonly ScopeFigures[]; readonly windowEnd: number }
  | {
      readonly kind: 'refused';
      readonly scope: LimitScope;
      readonly limit: RedisLimitName;
      /** The refused scope's counters in Redis. */
      readonly figures: ScopeFigures;
      readonly windowEnd: number;
    }
  /** Redis did not answer: the caller fails open. */
  | { readonly kind: 'unavailable'; readonly reason: string };

export interface RedisLimiterOptions {
  prefix: string;
  /** How long a slot lives unless renewed: bounds what a dead instance leaves taken. */
  leaseMs: number;
  /** How long to wait for Redis before failing open. */
  timeoutMs: number;
  /** Lease expiries of renewals (admissions take `now` from their request). */
  clock: Clock;
  /**
   * Told of changes that never reached Redis (slots expire on their own, token counts stay as they
   * were): the account and why.
   */
  onChangesFailed?: (accountId: string, reason: string) => void;
}

const MINUTE_MS = 60_000;
/** Redis gives an allowance at most 1/SHARE of what remains of a limit after the request. */
const SHARE = 16;
/** The most extra requests (and, times the request's estimate, tokens) and slots one call takes. */
const REQUEST_CAP = 64;
const SLOT_CAP = 64;
/** What a refill's grant held back for a request: nothing (all it took is allowance). */
const NOTHING: ScopeTake = { requests: 0, tokens: 0, slots: 0 };
/**
 * How long changes (slots freed, token corrections) may wait for the next round trip of their
 * account to carry them, before they are sent on their own. Meanwhile a slot is freed a little late,
 * never early.
 */
const CHANGE_WAIT_MS = 5;
/**
 * How often allowances are looked at: what a scope without a request since the last look holds
 * unused goes back to Redis, so another instance can use it (and the admin figures stop counting it).
 */
const ALLOWANCE_TICK_MS = 1_000;

interface HeldScope {
  readonly accountId: string;
  /** The scope's key prefix in Redis. */
  readonly base: string;
  readonly allowance: ScopeAllowance;
}

interface LimitCommands {
  governanceAdmit(...args: (string | number)[]): Promise<unknown>;
  governanceChanges(...args: (string | number)[]): Promise<unknown>;
}

/**
 * Requests per minute, tokens per minute and concurrent requests of a key and its account, counted in
 * Redis so that every instance shares them. A request that this instance's allowances cover (what it
 * took from Redis beyond its earlier requests' needs, scope-allowance.ts) is admitted without a round
 * trip; otherwise one script call admits against every limit and takes a new allowance. Changes
 * (slots freed, token corrections, renewals) wait for the next call of their account and ride on it,
 * or go in one call per account within CHANGE_WAIT_MS. All keys of one account carry the account id
 * as their hash tag, so a Redis Cluster keeps them in one slot.
 */
export class RedisLimiter {
  private readonly commands: LimitCommands;
  private readonly held = new Map<string, HeldScope>();
  private readonly bases = new WeakMap<LimitScope, string>();
  /** Scopes with changes to send, by account (one script call may only touch one account's slot). */
  private dirty = new Map<string, Set<HeldScope>>();
  /** Scopes whose next allowance is being taken ahead of need (refill), and those calls. */
  private readonly refilling = new Set<HeldScope>();
  private readonly refills = new Set<Promise<void>>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly tickTimer: NodeJS.Timeout;
  private ticks = 0;
  /** Slot ids are this instance's random prefix and a sequence number. */
  private readonly slotPrefix = `${randomBytes(6).toString('hex')}:`;
  private nextSlot = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisLimiterOptions,
  ) {
    if (!('governanceAdmit' in redis)) {
      redis.defineCommand('governanceAdmit', { lua: ADMIT_SCRIPT });
      redis.defineCommand('governanceChanges', { lua: CHANGES_SCRIPT });
    }
    this.commands = redis as unknown as LimitCommands;
    this.tickTimer = setInterval(() => void this.tick(), ALLOWANCE_TICK_MS).unref();
  }

  // perf-machinery: synchronous-admission (docs/performance-machinery.md)
  /**
   * The request's verdict: at once, without a round trip or a promise, when this instance's
   * allowances cover it; otherwise a promise of what Redis answers.
   */
  admit(request: LimitRequest): LimitVerdict | Promise<LimitVerdict> {
    const window = request.now - (request.now % MINUTE_MS);
    if (!this.allowancesCover(request, window)) return this.acquire(request);
    let runningLow = false;
    let refilling = false;
    const figures = request.scopes.map((scope) => {
      const held = this.heldOf(request.accountId, scope);
      held.allowance.takeCovered(scope.limits, request.tokens);
      runningLow ||= held.allowance.runningLow(scope.limits, request.tokens);
      refilling ||= this.refilling.has(held);
      return held.allowance.figures(request.tokens);
    });
    if (runningLow && !refilling) {
      // A refill that fails leaves the allowance as it was: the request that empties it asks Redis.
      const refill = this.refill(request)
        .catch(() => undefined)
        .finally(() => this.refills.delete(refill));
      this.refills.add(refill);
    }
    return { kind: 'admitted', figures, windowEnd: window + MINUTE_MS };
  }

  /** What the allowances do not cover, asked of Redis (admit found them short). */
  private async acquire(request: LimitRequest): Promise<LimitVerdict> {
    const window = request.now - (request.now % MINUTE_MS);
    const windowEnd = window + MINUTE_MS;
    const takes = request.scopes.map((scope) => {
      const held = this.heldOf(request.accountId, scope);
      held.allowance.enter(window);
      return { held, ...held.allowance.take(scope.limits, request.tokens) };
    });
    const answer = await this.takeFromRedis(request, window, takes);
    if (answer.failed) {
      for (const take of takes) take.held.allowance.undo(window, take);
      return { kind: 'unavailable', reason: answer.reason };
    }
    const { reply, firstSlots } = answer;
    if (!reply.admitted) {
      for (const take of takes) take.held.allowance.undo(window, take);
      const scope = request.scopes[reply.scope];
      if (scope === undefined) throw new Error('rate-limit reply names no scope');
      return { kind: 'refused', scope, limit: reply.limit, figures: reply.counts, windowEnd };
    }
    return {
      kind: 'admitted',
      figures: takes.map(({ held, need }, index) => {
        const taken = reply.taken[index];
        held.allowance.grant(
          window,
          need,
          reply.counts[index],
          taken,
          this.slotIds(firstSlots[index], taken),
        );
        return held.allowance.figures(request.tokens);
      }),
      windowEnd,
    };
  }

  // perf-machinery: allowance-refill (docs/performance-machinery.md)
  /**
   * Takes the next allowance of a request's scopes while a quarter of the last one is still left, so
   * that no request waits for it: the request that found an allowance empty waited for the script's
   * round trip (one in 65 of a busy key's requests, 0.2 ms on an idle machine and 4-6 ms with both
   * cores busy). It asks as for one more request like this one, of what runs low only
   * (ScopeAllowance.refillNeed), and holds all that Redis gives, under
   * the same share and caps; a scope near its limits gets small grants and is never refilled ahead
   * (ScopeAllowance.runningLow), so there every request is still counted in Redis as it comes.
   */
  private async refill(request: LimitRequest): Promise<void> {
    const window = request.now - (request.now % MINUTE_MS);
    const takes = request.scopes.map((scope) => {
      const held = this.heldOf(request.accountId, scope);
      this.refilling.add(held);
      return { held, need: held.allowance.refillNeed(scope.limits, request.tokens) };
    });
    try {
      const answer = await this.takeFromRedis(request, window, takes);
      if (answer.failed || !answer.reply.admitted) return;
      const { reply, firstSlots } = answer;
      takes.forEach(({ held }, index) => {
        const taken = reply.taken[index];
        held.allowance.enter(window);
        held.allowance.grant(
          window,
          NOTHING,
          reply.counts[index],
          taken,
          this.slotIds(firstSlots[index], taken),
        );
      });
    } finally {
      for (const { held } of takes) this.refilling.delete(held);
    }
  }

  /**
   * One admit script call taking `need` of each scope (plus a share of what remains) with the
   * account's waiting changes; changes it could not deliver are reported (onChangesFailed).
   */
  private async takeFromRedis(
    request: LimitRequest,
    window: number,
    takes: readonly { need: ScopeTake }[],
  ): Promise<{ failed: true; reason: string } | { failed: false; reply: AdmitReply; firstSlots: number[] }> {
    const keys: string[] = [];
    const args: (string | number)[] = [
      request.now,
      window + MINUTE_MS,
      this.options.leaseMs,
      SHARE,
      REQUEST_CAP,
      SLOT_CAP,
      this.slotPrefix,
      request.scopes.length,
    ];
    const firstSlots: number[] = [];
    request.scopes.forEach((scope, index) => {
      const { need } = takes[index];
      keys.push(...this.keysOf(request.accountId, scope, window));
      firstSlots.push(this.nextSlot);
      this.nextSlot += 1 + SLOT_CAP;
      args.push(
        scope.limits.requestsPerMinute ?? 0,
        scope.limits.tokensPerMinute ?? 0,
        scope.limits.concurrentRequests ?? 0,
        need.requests,
        need.tokens,
        need.slots,
        request.tokens * REQUEST_CAP,
        firstSlots[index],
      );
    });
    const changes = this.appendChanges(request.accountId, keys, args);
    const answer = await this.call(() => this.commands.governanceAdmit(keys.length, ...keys, ...args));
    if (answer.failed) {
      if (changes > 0) this.options.onChangesFailed?.(request.accountId, answer.reason);
      return answer;
    }
    return { failed: false, reply: parseAdmitReply(answer.reply, request.scopes.length), firstSlots };
  }

  /** The ids of the slots a grant gave, numbered from the call's first. */
  private slotIds(firstSlot: number, taken: ScopeTake): string[] {
    return Array.from({ length: taken.slots }, (_, slot) => this.slotPrefix + (firstSlot + slot));
  }

  /**
   * A request admitted by `admit` ended: frees its slots and corrects its tokens by `tokenDelta`
   * (reported minus estimated) in this instance's allowances; what Redis must learn of it goes with
   * the account's next round trip, or within CHANGE_WAIT_MS on its own.
   */
  release(request: LimitRequest, tokenDelta: number): void {
    const window = request.now - (request.now % MINUTE_MS);
    for (const scope of request.scopes) {
      const held = this.held.get(this.baseOf(request.accountId, scope));
      // Most ends leave nothing for Redis (the slot and tokens stay in the allowance): no timer then.
      if (!held?.allowance.end(scope.limits, window, tokenDelta)) continue;
      this.markDirty(held);
      this.flushTimer ??= setTimeout(() => void this.flush(), CHANGE_WAIT_MS).unref();
    }
  }

  /** Sends every waiting change now, one script call per account; resolves once all are answered. */
  async flush(all = false): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const accounts = [...this.dirty.keys()];
    await Promise.all(
      accounts.map(async (accountId) => {
        const keys: string[] = [];
        const args: (string | number)[] = [];
        if (this.appendChanges(accountId, keys, args, all) === 0) return;
        const answer = await this.call(() => this.commands.governanceChanges(keys.length, ...keys, ...args));
        if (answer.failed) this.options.onChangesFailed?.(accountId, answer.reason);
      }),
    );
  }

  /**
   * Gives back what this instance holds unused (spare slots, tokens) before the Redis connection
   * closes (Nest calls this first); the slots of requests still running expire with their lease.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.tickTimer);
    // A refill still on its way would hold its grant after the give-back below.
    await Promise.allSettled(this.refills);
    for (const held of this.held.values()) this.markDirty(held);
    return this.flush(true);
  }

  /**
   * Every ALLOWANCE_TICK_MS: gives back what scopes without a request since the last tick hold unused,
   * renews held slots every quarter of the lease, forgets allowances of past minutes.
   */
  private tick(): Promise<void> {
    this.ticks += 1;
    const renew = this.ticks % Math.max(1, Math.floor(this.options.leaseMs / 4 / ALLOWANCE_TICK_MS)) === 0;
    const now = this.options.clock.now();
    const window = now - (now % MINUTE_MS);
    for (const [base, held] of this.held) {
      if (held.allowance.tick(renew)) this.markDirty(held);
      else if (held.allowance.emptyBefore(window)) this.held.delete(base);
    }
    return this.flush();
  }

  /** Whether every scope's allowance covers the request whole (none then needs a round trip). */
  private allowancesCover(request: LimitRequest, window: number): boolean {
    for (const scope of request.scopes) {
      const { allowance } = this.heldOf(request.accountId, scope);
      allowance.enter(window);
      if (!allowance.covers(scope.limits, request.tokens)) return false;
    }
    return true;
  }

  private heldOf(accountId: string, scope: LimitScope): HeldScope {
    const base = this.baseOf(accountId, scope);
    let held = this.held.get(base);
    if (!held) {
      held = { accountId, base, allowance: new ScopeAllowance() };
      this.held.set(base, held);
    }
    return held;
  }

  private markDirty(held: HeldScope): void {
    const scopes = this.dirty.get(held.accountId);
    if (scopes) scopes.add(held);
    else this.dirty.set(held.accountId, new Set([held]));
  }

  /**
   * Appends the account's waiting changes to a script call's keys and arguments, as APPLY_CHANGES
   * reads them; returns how many.
   */
  private appendChanges(accountId: string, keys: string[], args: (string | number)[], all = false): number {
    const scopes = this.dirty.get(accountId);
    this.dirty.delete(accountId);
    const countAt = args.push(0) - 1;
    let count = 0;
    for (const held of scopes ?? []) {
      for (const change of held.allowance.changes(all)) {
        count += 1;
        appendChange(
          held.base,
          change,
          this.options.clock.now() + this.options.leaseMs,
          this.options.leaseMs,
          keys,
          args,
        );
      }
    }
    args[countAt] = count;
    return count;
  }

  /**
   * The current minute's request and token counters and the slots held of one scope (admin views):
   * what every instance took, its unused allowances included.
   */
  async figuresOf(accountId: string, scope: LimitScope, now: number): Promise<ScopeCounts | null> {
    const windowStart = now - (now % MINUTE_MS);
    const [requestsKey, tokensKey, leasesKey] = this.keysOf(accountId, scope, windowStart);
    const answer = await this.call(() =>
      this.redis.multi().get(requestsKey).get(tokensKey).zcount(leasesKey, `(${now}`, '+inf').exec(),
    );
    if (answer.failed || !Array.isArray(answer.reply)) return null;
    const values = (answer.reply as [Error | null, unknown][]).map(([, value]) => Number(value ?? 0));
    return { requests: values[0] ?? 0, tokens: values[1] ?? 0, slots: values[2] ?? 0 };
  }

  private keysOf(accountId: string, scope: LimitScope, window: number): [string, string, string] {
    const base = this.baseOf(accountId, scope);
    return [`${base}:rq:${window}`, `${base}:tk:${window}`, `${base}:inflight`];
  }

  /**
   * The scope's key prefix, built once per scope object (the governance service keeps one per key):
   * built per request, the string and its hash for the lookup cost more than the rest of an admission.
   */
  private baseOf(accountId: string, scope: LimitScope): string {
    let base = this.bases.get(scope);
    if (base === undefined) {
      base = `${this.options.prefix}:gov:{${accountId}}:${scope.kind === 'key' ? `k:${scope.id}` : 'a'}`;
      this.bases.set(scope, base);
    }
    return base;
  }

  /** One script call, bounded (boundedCommand): a failure is a reason, never a rejection. */
  private async call(
    send: () => Promise<unknown>,
  ): Promise<{ failed: false; reply: unknown } | { failed: true; reason: string }> {
    try {
      return { failed: false, reply: await boundedCommand(this.redis, this.options.timeoutMs, send) };
    } catch (error) {
      return { failed: true, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** One change as APPLY_CHANGES reads it: its key, then its kind and arguments. */
function appendChange(
  base: string,
  change: AllowanceChange,
  expiry: number,
  leaseMs: number,
  keys: string[],
  args: (string | number)[],
): void {
  switch (change.kind) {
    case 'requests':
    case 'tokens':
      keys.push(`${base}:${change.kind === 'requests' ? 'rq' : 'tk'}:${change.window}`);
      args.push('n', change.delta);
      return;
    case 'release-slots':
      keys.push(`${base}:inflight`);
      args.push('z', change.slots.length, ...change.slots);
      return;
    case 'renew-slots':
      keys.push(`${base}:inflight`);
      args.push('r', expiry, leaseMs, change.slots.length, ...change.slots);
  }
}
