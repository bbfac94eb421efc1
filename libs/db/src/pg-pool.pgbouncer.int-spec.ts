import { createTestDatabase, PgBouncerProcess, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { createPgPool, withoutStatementName } from './pg-pool';
import { createPrismaClient } from './prisma-client.factory';

/** A named statement as the hot path defines them (prepared once per connection when sent named). */
const NAMED_STATEMENT = { name: 'pgbouncer_test_echo', text: 'select $1::int as value' };

/**
 * The pools behind Debian's PgBouncer in transaction mode: two clients' transactions share server
 * connections there, so a statement prepared under a name on one is unknown (or already known) on
 * another, and PgBouncer refuses the `options` startup parameter outright.
 */
describe('pg pools behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncerProcess;
  let database: TestDatabase;
  const pools: Pool[] = [];

  beforeAll(async () => {
    [bouncer, database] = await Promise.all([PgBouncerProcess.start({ poolSize: 2 }), createTestDatabase()]);
  });

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await bouncer?.stop();
    await database?.drop();
  });

  const poolThroughBouncer = (transactionPooler: boolean, asynchronousCommit = false): Pool => {
    const pool = createPgPool(bouncer.urlOf(database.url), 8, { transactionPooler, asynchronousCommit });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };

  /** Many clients at once over PgBouncer's two server connections, each sending the named statement. */
  const echoConcurrently = (pool: Pool) =>
    Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        pool
          .query<{ value: number }>({ ...NAMED_STATEMENT, values: [index] })
          .then((result) => result.rows[0].value),
      ),
    );

  it('runs named statements from many clients when told it is behind the pooler', async () => {
    const values = await echoConcurrently(poolThroughBouncer(true));

    expect(values).toEqual(Array.from({ length: 40 }, (_, index) => index));
  });

  it('fails the same statements without that (the clash the option prevents)', async () => {
    await expect(echoConcurrently(poolThroughBouncer(false))).rejects.toThrow(/prepared statement/);
  });

  it('connects the money pool without the startup option PgBouncer refuses, committing synchronously', async () => {
    const money = poolThroughBouncer(true, true);

    const { rows } = await money.query<{ synchronous_commit: string }>('show synchronous_commit');

    expect(rows[0].synchronous_commit).toBe('on');
    const refused = createPgPool(bouncer.urlOf(database.url), 1, { asynchronousCommit: true });
    refused.on('error', () => undefined);
    await expect(refused.query('select 1')).rejects.toThrow(/unsupported startup parameter: options/);
    await refused.end();
  });

  it('carries Prisma queries and interactive transactions', async () => {
    const prisma = createPrismaClient(poolThroughBouncer(true));
    const account = await prisma.account.create({
      data: { id: `acct_${Date.now()}`, name: 'through the pooler' },
    });

    const renamed = await prisma.$transaction(async (transaction) => {
      await transaction.account.update({ where: { id: account.id }, data: { name: 'renamed' } });
      return transaction.account.findUniqueOrThrow({ where: { id: account.id } });
    });

    expect(renamed.name).toBe('renamed');
    await prisma.$disconnect();
  });
});

describe('withoutStatementName', () => {
  it('drops the name of a query config and leaves everything else as it was', () => {
    expect(withoutStatementName({ name: 'n', text: 'select 1', values: [1] })).toEqual({
      text: 'select 1',
      values: [1],
    });
    expect(withoutStatementName('select 1')).toBe('select 1');
    const submittable = { name: 'cursor', submit: () => undefined };
    expect(withoutStatementName(submittable)).toBe(submittable);
  });
});
