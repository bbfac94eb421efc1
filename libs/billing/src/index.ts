export * from './price/price.types';
export * from './price/price-book';
export * from './price/cost.util';
export * from './price/tier-price.util';
export * from './price/usage-cost.util';
export * from './hold/hold.types';
export * from './hold/hold.service';
export * from './settlement/request-log.types';
export * from './settlement/settlement.types';
export * from './settlement/settlement.service';
export * from './settlement/settlement-observer';
export * from './settlement/hold-reaper.service';
export * from './settlement/database-refusal.util';
export * from './account/account.types';
export * from './account/keyed-entry';
export * from './account/credit.service';
export * from './account/debit.types';
export * from './account/debit.service';
export * from './lease/hold-leases';
export * from './budget/budget-period.util';
export * from './budget/governance-reservations';
// perf-machinery: replica-without-orm (docs/performance-machinery.md)
// Not exported here: the ledger audit (@gateway/billing/ledger-audit), which needs the Prisma client.
// The gateway's hot path imports this index, and a public replica serves text without the ORM.
