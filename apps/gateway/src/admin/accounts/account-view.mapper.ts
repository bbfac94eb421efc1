import type { AccountView } from '@gateway/contracts';
import type { Account } from '@gateway/db';
import { budgetViewOf, limitsViewOf } from '../shared/governance-columns.mapper';

/** Money leaves as decimal strings of micros: a JSON number would round amounts above 2^53. */
export function toAccountView(row: Account): AccountView {
  return {
    id: row.id,
    name: row.name,
    balanceMicros: row.balance.toString(),
    heldMicros: row.held.toString(),
    availableMicros: (row.balance - row.held).toString(),
    overdraftLimitMicros: row.overdraftLimit.toString(),
    limits: limitsViewOf(row.limits),
    budget: budgetViewOf(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
