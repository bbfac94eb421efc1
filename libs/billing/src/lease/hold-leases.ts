import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { holdInputProblem, insufficientBalance, unknownAccountError } from '../hold/hold-input.util';
import type { HoldService } from '../hold/hold.service';
import type { LeasedHold, TakeHoldInput, TakeHoldResult } from '../hold/hold.types';
import { closeLeasesStatement, reserveLeaseStatement } from './lease.statements';

export interface HoldLeaseOptions {
  /**
   * When a lease opens or grows, it reserves this many more holds like the one that needed it, as far
   * as the account can cover them. 0 turns leases off: every hold is then written as it is taken.
   */
  holdsAhead: number;
  /** A lease that no hold used for this long is closed and its amount given back to the account. */
  idleMs: number;
  /** A lease's lifetime in the database; it is renewed while it is used, and reaped after it lapses. */
  ttlMs: number;
  /** Who holds the leases, for operators: host and pid. */
  owner: string;
  /** Reports what a background renewal or close could not do; the lease then lapses in the database. */
  onError(error: unknown, what: string): void;
  now?: () => number;
}

interface ReserveRow {
  state: 'granted' | 'refused' | 'closed' | 'unknown';
  granted: string;
  available: string | null;
}

type ReserveOutcome =
  { state: 'granted' | 'closed' | 'unknown' } | { state: 'refused'; availableMicros: bigint };

/** This process's share of one account. */
interface AccountLease {
  readonly id: string;
  readonly accountId: string;
  /** Holdable now: granted − open holds − what settled holds took from the lease. Never below 0. */
  available: bigint;
  openHolds: number;
  /** When the database lets the lease lapse, as seen from here (a little early, never late). */
  expiresAtMs: number;
  lastUsedMs: number;
  /** Whether the database has its row yet; until then there is nothing to renew or close. */
  opened: boolean;
  /** The reservation in flight; takes the lease cannot cover wait for it instead of sending their own. */
  reserving: Promise<ReserveOutcome> | undefined;
}

/** A lease is used only while it has this share of its lifetime left, so a renewal has time to land. */
const MIN_LIFETIME_SHARE = 4;
/** The sweep renews a lease used within its idle time once it has this share of its lifetime left. */
const RENEW_LIFETIME_SHARE = 2;

// perf-machinery: hold-leases (docs/performance-machinery.md)
/**
 * Holds without a database round trip. The process reserves an amount on an account once (a lease: one
 * statement that checks and raises the account's `held` atomically, like a hold) and then takes each
 * request's hold from it in memory. Nothing can overspend: every hold is covered by money the database
 * reserved for this process, and JavaScript runs one take at a time. A leased hold has no row: its
 * settlement writes the request's log row (the once-only guard), captures from the balance and from the
 * lease, and this process gives the unused part back to the lease. When the lease cannot cover a hold,
 * the take grows it (a round trip again) or refuses it with the account's true available amount: this
 * process's lease plus what the database has left.
 *
 * Leases are closed when idle (their rest goes back to the account), renewed while used, and closed at
 * shutdown; if the process dies, the reaper closes them after `ttlMs`, and the requests that were in
 * flight are not charged, as with a reaped hold.
 */
export class HoldLeases {
  private readonly byAccount = new Map<string, AccountLease>();
  private readonly byId = new Map<string, AccountLease>();
  private readonly now: () => number;
  private sweeper: NodeJS.Timeout | undefined;
  /** Set by start(): the sweep then runs while this process holds a lease, and only then. */
  private sweepIntervalMs: number | undefined;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly holds: Pick<HoldService, 'take'>,
    private readonly options: HoldLeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Takes the hold from this process's lease when it covers it; otherwise grows the lease first. */
  take(input: TakeHoldInput): Promise<TakeHoldResult> {
    if (this.options.holdsAhead === 0) return this.holds.take(input);
    const problem = holdInputProblem(input);
    if (problem) return Promise.reject(problem);
    const lease = this.byAccount.get(input.accountId);
    const now = this.now();
    if (lease && this.covers(lease, input.amount, now))
      return Promise.resolve(this.takeFrom(lease, input, now));
    return this.takeAfterReserving(input);
  }

  /**
   * Ends a leased hold here: what it held and did not capture can be held again. A capture beyond the
   * hold is covered from the lease's spare first (money this process reserved and no hold uses), so
   * the account pays it from what it had reserved before its free money; the returned hold, with that
   * added, is what the settlement takes from the lease (the rest of the capture comes from the
   * account's free money, as far as there is any).
   */
  release(hold: LeasedHold, captureMicros: bigint): LeasedHold {
    const lease = this.byId.get(hold.leaseId);
    if (!lease) return hold;
    const overshoot = captureMicros - hold.amount;
    const topUp = overshoot <= 0n || lease.available <= 0n ? 0n : minOf(overshoot, lease.available);
    lease.available -= topUp + (overshoot < 0n ? overshoot : 0n);
    lease.openHolds -= 1;
    lease.lastUsedMs = this.now();
    return topUp === 0n ? hold : { ...hold, amount: hold.amount + topUp };
  }

  /**
   * Sweeps every `intervalMs` while a lease is open: idle leases closed, used ones renewed. An
   * instance without leases (no traffic) has no timer to wake it.
   */
  start(intervalMs = 1_000): void {
    this.sweepIntervalMs = intervalMs;
    if (this.byId.size > 0) this.sweepWhileLeased();
  }

  /** Whether the sweep timer runs. */
  get sweeping(): boolean {
    return this.sweeper !== undefined;
  }

  /** This process's leases as the metrics show them; read at scrape time, never on the request path. */
  figures(): { leases: number; openHolds: number; availableMicros: bigint } {
    let openHolds = 0;
    let availableMicros = 0n;
    for (const lease of this.byId.values()) {
      openHolds += lease.openHolds;
      availableMicros += lease.available;
    }
    return { leases: this.byId.size, openHolds, availableMicros };
  }

  /** Closes every lease with no open hold that was idle at least `minIdleMs`. */
  async closeIdle(minIdleMs: number): Promise<void> {
    const now = this.now();
    const idle = [...this.byId.values()].filter(
      (lease) => !lease.reserving && lease.openHolds === 0 && now - lease.lastUsedMs >= minIdleMs,
    );
    await this.close(idle);
  }

  /** Stops the sweep and closes every lease; for shutdown, after the last settlement was written. */
  async stop(): Promise<void> {
    this.sweepIntervalMs = undefined;
    this.stopSweeping();
    await Promise.allSettled([...this.byId.values()].map((lease) => lease.reserving));
    await this.close([...this.byId.values()]);
  }

  /** A reservation in flight (a renewal, another take's growth) only adds: it need not be awaited. */
  private covers(lease: AccountLease, amount: bigint, now: number): boolean {
    return lease.available >= amount && lease.expiresAtMs - now >= this.options.ttlMs / MIN_LIFETIME_SHARE;
  }

  private takeFrom(lease: AccountLease, input: TakeHoldInput, now: number): TakeHoldResult {
    lease.available -= input.amount;
    lease.openHolds += 1;
    lease.lastUsedMs = now;
    return {
      ok: true,
      lease: {
        leaseId: lease.id,
        accountId: input.accountId,
        keyId: input.keyId,
        model: input.model,
        route: input.route,
        amount: input.amount,
      },
    };
  }

  private async takeAfterReserving(input: TakeHoldInput): Promise<TakeHoldResult> {
    for (;;) {
      const lease = this.byAccount.get(input.accountId) ?? this.open(input.accountId);
      const now = this.now();
      if (this.covers(lease, input.amount, now)) return this.takeFrom(lease, input, now);
      if (lease.reserving) {
        await lease.reserving.catch(() => undefined);
        continue;
      }
      const need = input.amount > lease.available ? input.amount - lease.available : 0n;
      const outcome = await this.reserve(lease, need, need + input.amount * BigInt(this.options.holdsAhead));
      if (outcome.state === 'unknown') throw unknownAccountError(input.accountId);
      if (outcome.state === 'refused') {
        const own = lease.available > 0n ? lease.available : 0n;
        return insufficientBalance(outcome.availableMicros + own);
      }
    }
  }

  private open(accountId: string): AccountLease {
    const lease: AccountLease = {
      id: `lease_${randomUUID()}`,
      accountId,
      available: 0n,
      openHolds: 0,
      expiresAtMs: 0,
      lastUsedMs: this.now(),
      opened: false,
      reserving: undefined,
    };
    this.byAccount.set(accountId, lease);
    this.byId.set(lease.id, lease);
    this.sweepWhileLeased();
    return lease;
  }

  private sweepWhileLeased(): void {
    const intervalMs = this.sweepIntervalMs;
    if (intervalMs !== undefined) this.sweeper ??= setInterval(() => void this.sweep(), intervalMs).unref();
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private forget(lease: AccountLease): void {
    if (this.byAccount.get(lease.accountId) === lease) this.byAccount.delete(lease.accountId);
    this.byId.delete(lease.id);
  }

  /** Asks the database for `need` (or nothing) up to `want`, and pushes the lease's expiry. */
  private reserve(lease: AccountLease, need: bigint, want: bigint): Promise<ReserveOutcome> {
    const sentAt = this.now();
    const reserving = this.pool
      .query<ReserveRow>({
        ...reserveLeaseStatement,
        values: [
          lease.id,
          lease.accountId,
          this.options.owner,
          need.toString(),
          want.toString(),
          this.options.ttlMs,
        ],
      })
      .then(({ rows: [row] }) => this.applyReservation(lease, row, sentAt))
      .finally(() => {
        lease.reserving = undefined;
      });
    lease.reserving = reserving;
    return reserving;
  }

  private applyReservation(lease: AccountLease, row: ReserveRow, sentAt: number): ReserveOutcome {
    if (row.state === 'granted') {
      lease.available += BigInt(row.granted);
      lease.expiresAtMs = sentAt + this.options.ttlMs;
      lease.opened = true;
      return { state: 'granted' };
    }
    // Closed and unknown leases are dropped, and so is a refused one the database never opened.
    if (row.state !== 'refused' || !lease.opened) this.forget(lease);
    return row.state === 'refused'
      ? { state: 'refused', availableMicros: BigInt(row.available ?? 0) }
      : { state: row.state };
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    for (const lease of this.byId.values()) {
      const used = lease.openHolds > 0 || now - lease.lastUsedMs < this.options.idleMs;
      const renewDue = lease.expiresAtMs - now < this.options.ttlMs / RENEW_LIFETIME_SHARE;
      if (used && renewDue && lease.opened && !lease.reserving) {
        this.reserve(lease, 0n, 0n).catch((error: unknown) => this.options.onError(error, 'lease renewal'));
      }
    }
    await this.closeIdle(this.options.idleMs);
    if (this.byId.size === 0) this.stopSweeping();
  }

  /** Forgets the leases here at once (no hold is taken from them after), then closes them there. */
  private async close(leases: AccountLease[]): Promise<void> {
    for (const lease of leases) this.forget(lease);
    const ids = leases.filter((lease) => lease.opened).map((lease) => lease.id);
    if (ids.length === 0) return;
    try {
      await this.pool.query({ ...closeLeasesStatement, values: [ids] });
    } catch (error) {
      this.options.onError(error, 'lease close');
    }
  }
}

function minOf(first: bigint, second: bigint): bigint {
  return first < second ? first : second;
}
