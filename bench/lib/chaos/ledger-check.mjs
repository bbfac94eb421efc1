// After the load: waiting until what the faults left open (holds, leases, queued settlements) has been
// settled or reaped, then the ledger audit of every account, run by the gateway's own LedgerAudit
// (libs/billing/src/ledger/ledger-audit.ts, from the production build) on a Prisma client of dist/.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';

const POLL_MS = 1000;
const SETTLEMENT_QUEUE = 'text-settlement';
const PENDING_STATES = ['wait', 'active', 'delayed', 'prioritized', 'paused'];

async function readLeftovers(client, queue) {
  const { rows } = await client.query(`
    SELECT (SELECT count(*) FROM holds WHERE status = 'open')::int AS open_holds,
           (SELECT count(*) FROM leases WHERE status = 'open')::int AS open_leases,
           (SELECT count(*) FROM request_logs)::int AS request_log_rows`);
  const counts = await queue.getJobCounts(...PENDING_STATES, 'failed');
  return {
    openHolds: rows[0].open_holds,
    openLeases: rows[0].open_leases,
    requestLogRows: rows[0].request_log_rows,
    pendingSettlements: PENDING_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0),
    failedSettlements: counts.failed ?? 0,
  };
}

/**
 * Polls until no hold or lease is open and no settlement job is pending, or `deadlineMs` passes.
 * Returns the last counts and `settledAfterMs` (null when something was still open at the deadline).
 */
export async function waitForSettlement({ databaseUrl, redisUrl, redisPrefix, deadlineMs }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(SETTLEMENT_QUEUE, { connection, prefix: redisPrefix });
  const startedAt = performance.now();
  await client.connect();
  try {
    for (;;) {
      const leftovers = await readLeftovers(client, queue);
      const elapsedMs = performance.now() - startedAt;
      const settled = leftovers.openHolds + leftovers.openLeases + leftovers.pendingSettlements === 0;
      if (settled || elapsedMs >= deadlineMs) {
        return { ...leftovers, settledAfterMs: settled ? elapsedMs : null, waitedMs: elapsedMs };
      }
      await sleep(POLL_MS);
    }
  } finally {
    await client.end();
    await queue.close();
    connection.disconnect();
  }
}

/**
 * LedgerAudit.auditAccount for each account, plus whether the balance stayed at or above minus the
 * account's overdraft limit (the audit's sums can agree on an account that overspent).
 */
export async function auditLedger({ root, databaseUrl, accountIds }) {
  const require = createRequire(import.meta.url);
  const { createPgPool, createPrismaClient } = require(join(root, 'dist', 'libs', 'db', 'src', 'index.js'));
  const { LedgerAudit } = require(join(root, 'dist', 'libs', 'billing', 'src', 'ledger', 'ledger-audit.js'));
  const pool = createPgPool(databaseUrl, 2);
  const prisma = createPrismaClient(pool);
  try {
    const audit = new LedgerAudit(prisma);
    const results = [];
    for (const accountId of accountIds) {
      const result = await audit.auditAccount(accountId);
      const { rows } = await pool.query('SELECT overdraft_limit FROM accounts WHERE id = $1', [accountId]);
      results.push({ ...result, withinOverdraft: result.balance >= -BigInt(rows[0].overdraft_limit) });
    }
    return results;
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}
