import type { RedisConnection } from '@gateway/redis';
import type { GovernanceLimits } from '@gateway/auth';
import {
  ADMIT_SCRIPT,
  parseAdmitReply,
  RELEASE_SCRIPT,
  type RedisLimitName,
  type ScopeFigures,
} from './rate-limit.script';

/** A scope whose limits Redis keeps: a key on its own, or its account (all its keys together). */
export interface LimitScope {
  readonly kind: 'key' | 'account';
  readonly id: string;
  readonly limits: GovernanceLimits;
}

export interface LimitRequest {
  readonly accountId: string;
  readonly requestId: string;
  readonly scopes: readonly LimitScope[];
  /** The token estimate at admission; 0 where no token limit applies. */
  readonly tokens: number;
  readonly now: number;
}

export type LimitVerdict =
  | { readonly kind: 'admitted'; readonly figures: readonly ScopeFigures[]; readonly windowEnd: number }
  | {
      readonly kind: 'refused';
      readonly scope: LimitScope;
      readonly limit: RedisLimitName;
      readonly figures: ScopeFigures;
      readonly windowEnd: number;
    }
  /** Redis did not answer: the caller fails open. */
  | { readonly kind: 'unavailable'; readonly reason: string };

export interface RedisLimiterOptions {
  prefix: string;
  /** How long an in-flight lease lives unless released: bounds what a dead instance leaves taken. */
  leaseMs: number;
  /** How long to wait for Redis before failing open. */
  timeoutMs: number;
  /**
   * Told of releases that never reached Redis (their leases expire on their own, their token counts
   * stay as estimated): the request ids and why.
   */
  onReleaseFailed?: (requestIds: readonly string[], reason: string) => void;
}

const MINUTE_MS = 60_000;
// perf-machinery: piggybacked-releases (docs/performance-machinery.md)
/**
 * How long a request's release (its concurrency leases, its token correction) may wait for the next
 * admission of its account to carry it, before it is sent on its own. Meanwhile the account's
 * in-flight count is at most that much behind on every instance: a slot is freed a little late,
 * never early.
 */
const RELEASE_WAIT_MS = 5;

/** One admitted request's end, as the release scripts take it (APPLY_RELEASES). */
interface PendingRelease {
  readonly requestId: string;
  /** Per scope, its token counter of the admission minute and its lease set. */
  readonly keys: readonly string[];
  readonly tokenDelta: number;
  /** Per scope, '1' or '0': has a token limit, has a concurrency limit. */
  readonly flags: readonly string[];
}

interface LimitCommands {
  governanceAdmit(...args: (string | number)[]): Promise<unknown>;
  governanceRelease(...args: (string | number)[]): Promise<unknown>;
}

/**
 * Requests per minute, tokens per minute and concurrent requests of a key and its account, in Redis so
 * that every instance shares them: one script call (one round trip, EVALSHA) admits against all of
 * them. When a request ends, its release (freeing its leases, correcting its token count) waits for
 * the next admission of the same account and rides on it; one script call sends what no admission
 * took within RELEASE_WAIT_MS. So a busy account costs one round trip per request. All the keys of one
 * account carry the account id as their hash tag, so a Redis Cluster keeps them in one slot.
 */
export class RedisLimiter {
  private readonly commands: LimitCommands;
  /** Releases not sent yet, by account (one script call may only touch one account's slot). */
  private pending = new Map<string, PendingRelease[]>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisLimiterOptions,
  ) {
    if (!('governanceAdmit' in redis)) {
      redis.defineCommand('governanceAdmit', { lua: ADMIT_SCRIPT });
      redis.defineCommand('governanceRelease', { lua: RELEASE_SCRIPT });
    }
    this.commands = redis as unknown as LimitCommands;
  }

  async acquire(request: LimitRequest): Promise<LimitVerdict> {
    const windowStart = request.now - (request.now % MINUTE_MS);
    const windowEnd = windowStart + MINUTE_MS;
    const keys: string[] = [];
    const limits: number[] = [];
    for (const scope of request.scopes) {
      keys.push(...this.keysOf(request.accountId, scope, windowStart));
      limits.push(
        scope.limits.requestsPerMinute ?? 0,
        scope.limits.tokensPerMinute ?? 0,
        scope.limits.concurrentRequests ?? 0,
      );
    }
    const args: (string | number)[] = [
      request.now,
      windowEnd,
      request.requestId,
      this.options.leaseMs,
      request.tokens,
      request.scopes.length,
      ...limits,
    ];
    const releases = this.takePending(request.accountId);
    appendReleases(releases, keys, args);
    const answer = await this.call(() => this.commands.governanceAdmit(keys.length, ...keys, ...args));
    if (answer.failed) {
      this.releaseFailed(releases, answer.reason);
      return { kind: 'unavailable', reason: answer.reason };
    }
    const reply = parseAdmitReply(answer.reply);
    if (reply.admitted) return { kind: 'admitted', figures: reply.figures, windowEnd };
    const scope = request.scopes[reply.scope];
    if (scope === undefined) throw new Error('rate-limit reply names no scope');
    return { kind: 'refused', scope, limit: reply.limit, figures: reply.figures, windowEnd };
  }

  /**
   * Frees the request's leases and corrects its tokens by `tokenDelta` (reported minus estimated):
   * with the account's next admission, or within RELEASE_WAIT_MS on its own.
   */
  release(request: LimitRequest, tokenDelta: number): void {
    const windowStart = request.now - (request.now % MINUTE_MS);
    const keys: string[] = [];
    const flags: string[] = [];
    for (const scope of request.scopes) {
      const [, tokens, leases] = this.keysOf(request.accountId, scope, windowStart);
      keys.push(tokens, leases);
      flags.push(scope.limits.tokensPerMinute ? '1' : '0', scope.limits.concurrentRequests ? '1' : '0');
    }
    const release = { requestId: request.requestId, keys, tokenDelta, flags };
    const waiting = this.pending.get(request.accountId);
    if (waiting) waiting.push(release);
    else this.pending.set(request.accountId, [release]);
    this.flushTimer ??= setTimeout(() => void this.flush(), RELEASE_WAIT_MS).unref();
  }

  /** Sends every waiting release now, one script call per account; resolves once all are answered. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const accounts = this.pending;
    this.pending = new Map();
    await Promise.all(
      [...accounts.values()].map(async (releases) => {
        const keys: string[] = [];
        const args: (string | number)[] = [];
        appendReleases(releases, keys, args);
        const answer = await this.call(() => this.commands.governanceRelease(keys.length, ...keys, ...args));
        if (answer.failed) this.releaseFailed(releases, answer.reason);
      }),
    );
  }

  /** Nothing waits unsent once the gateway stops (Nest calls this before the Redis connection closes). */
  beforeApplicationShutdown(): Promise<void> {
    return this.flush();
  }

  private takePending(accountId: string): readonly PendingRelease[] {
    const releases = this.pending.get(accountId);
    if (!releases) return NO_RELEASES;
    this.pending.delete(accountId);
    return releases;
  }

  private releaseFailed(releases: readonly PendingRelease[], reason: string): void {
    if (releases.length === 0) return;
    this.options.onReleaseFailed?.(
      releases.map((release) => release.requestId),
      reason,
    );
  }

  /** The current minute's requests and tokens and the requests in flight of one scope (admin views). */
  async figuresOf(accountId: string, scope: LimitScope, now: number): Promise<ScopeFigures | null> {
    const windowStart = now - (now % MINUTE_MS);
    const [requestsKey, tokensKey, leasesKey] = this.keysOf(accountId, scope, windowStart);
    const answer = await this.call(() =>
      this.redis.multi().get(requestsKey).get(tokensKey).zcount(leasesKey, `(${now}`, '+inf').exec(),
    );
    if (answer.failed || !Array.isArray(answer.reply)) return null;
    const values = (answer.reply as [Error | null, unknown][]).map(([, value]) => Number(value ?? 0));
    return { requests: values[0] ?? 0, tokens: values[1] ?? 0, inFlight: values[2] ?? 0 };
  }

  private keysOf(accountId: string, scope: LimitScope, windowStart: number): [string, string, string] {
    const base = `${this.options.prefix}:gov:{${accountId}}:${scope.kind === 'key' ? `k:${scope.id}` : 'a'}`;
    return [`${base}:rq:${windowStart}`, `${base}:tk:${windowStart}`, `${base}:inflight`];
  }

  /**
   * A command sent while disconnected would wait in ioredis' offline queue until Redis is back (the
   * shared connection retries forever): refuse to wait, and bound the wait for a connected one.
   */
  private async call(
    send: () => Promise<unknown>,
  ): Promise<{ failed: false; reply: unknown } | { failed: true; reason: string }> {
    if (this.redis.status !== 'ready') return { failed: true, reason: `Redis is ${this.redis.status}` };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
    });
    try {
      return { failed: false, reply: await Promise.race([send(), timeout]) };
    } catch (error) {
      return { failed: true, reason: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}

const NO_RELEASES: readonly PendingRelease[] = [];

/** Appends `releases` to a script call's keys and arguments, as APPLY_RELEASES reads them. */
function appendReleases(
  releases: readonly PendingRelease[],
  keys: string[],
  args: (string | number)[],
): void {
  args.push(releases.length);
  for (const release of releases) {
    keys.push(...release.keys);
    args.push(release.requestId, release.tokenDelta, release.flags.length / 2, ...release.flags);
  }
}
