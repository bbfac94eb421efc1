import type { KeyGovernance } from '../governance/key-governance';

/** An active, unexpired inference key, as the request pipeline needs it. */
export interface ResolvedKey {
  readonly id: string;
  readonly accountId: string;
  /** Visible start of the key (`gk_xxxxxxxx`), safe for logs. */
  readonly prefix: string;
  /** Null when the key may use every model. */
  readonly allowedModels: ReadonlySet<string> | null;
  /** Milliseconds since the epoch, or null for a key that never expires. */
  readonly expiresAt: number | null;
  /**
   * Limits, budgets and IP allow-list of the key and of its account; null when none applies, so that
   * such a key is governed at no cost. Optional: keys built by tests and older callers have none.
   */
  readonly governance?: KeyGovernance | null;
}

/**
 * Why a request's key was refused: `missing` (no credential presented), `unknown` (no such key),
 * `disabled` (status other than active) or `expired`.
 */
export type KeyRejectionReason = 'missing' | 'unknown' | 'disabled' | 'expired';

export interface KeyRejection {
  readonly reason: KeyRejectionReason;
}

export type KeyResolution = ResolvedKey | KeyRejection;

export function isKeyRejection(resolution: KeyResolution): resolution is KeyRejection {
  return 'reason' in resolution;
}

export function isModelAllowed(key: ResolvedKey, model: string): boolean {
  return key.allowedModels === null || key.allowedModels.has(model);
}
