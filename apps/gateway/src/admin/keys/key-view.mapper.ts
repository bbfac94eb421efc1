import type { CreatedKeyView, KeyStatus, KeyView } from '@gateway/contracts';
import type { ApiKey } from '@gateway/db';
import { budgetViewOf, limitsViewOf } from '../shared/governance-columns.mapper';

/** The columns a key view reads; the hash is not among them, so it is never even loaded. */
export const KEY_VIEW_COLUMNS = {
  id: true,
  accountId: true,
  name: true,
  prefix: true,
  status: true,
  expiresAt: true,
  allowedModels: true,
  limits: true,
  budgetMicros: true,
  budgetPeriod: true,
  allowedIps: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type KeyViewRow = Omit<ApiKey, 'hash'>;

export function toKeyView(row: KeyViewRow): KeyView {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    prefix: row.prefix,
    status: row.status as KeyStatus,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    allowedModels: [...row.allowedModels],
    limits: limitsViewOf(row.limits),
    budget: budgetViewOf(row),
    allowedIps: [...row.allowedIps],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The creation answer: the only place the whole key ever appears. */
export function toCreatedKeyView(row: KeyViewRow, plaintextKey: string): CreatedKeyView {
  return { ...toKeyView(row), key: plaintextKey };
}
