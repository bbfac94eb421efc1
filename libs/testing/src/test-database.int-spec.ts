import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from './test-database';

const runFile = promisify(execFile);
const projectRoot = join(__dirname, '..', '..', '..');

async function queryRows<Row>(url: string, text: string): Promise<Row[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

function deploy(url: string) {
  return runFile(process.execPath, [join(projectRoot, 'tools', 'migrate.mjs'), 'deploy'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: url },
  });
}

describe('createTestDatabase and the migration runner (Postgres)', () => {
  let database: TestDatabase;

  /** Every migration folder of the repository, in the order they apply. */
  const MIGRATION_NAMES = readdirSync(join(__dirname, '..', '..', '..', 'prisma', 'migrations'), {
    withFileTypes: true,
  })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

  beforeAll(async () => {
    expect(MIGRATION_NAMES).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\d{14}_init$/),
        expect.stringMatching(/^\d{14}_ledger_guards$/),
      ]),
    );
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('creates a fresh database with every migration recorded as finished', async () => {
    const rows = await queryRows<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
      database.url,
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(MIGRATION_NAMES);
    expect(rows.every((row) => row.finished && !row.rolled_back)).toBe(true);
    const tables = await queryRows<{ tablename: string }>(
      database.url,
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    expect(tables.map((table) => table.tablename)).toEqual(
      expect.arrayContaining(['accounts', 'holds', 'ledger_entries', 'prices', 'request_logs', 'tasks']),
    );
  });

  it('applies nothing on a second deploy', async () => {
    const { stdout } = await deploy(database.url);

    expect(stdout).toContain('no pending migrations');
    const [{ count }] = await queryRows<{ count: number }>(
      database.url,
      'SELECT count(*)::int AS count FROM _prisma_migrations',
    );
    expect(count).toBe(MIGRATION_NAMES.length);
  });

  it('creates a missing database on deploy and says what it applied', async () => {
    const url = new URL(database.url);
    url.pathname = `${url.pathname}_created`;
    try {
      const { stdout } = await deploy(url.toString());

      expect(stdout).toContain(`created database ${url.pathname.slice(1)}`);
      expect(stdout).toContain(`applied ${MIGRATION_NAMES.join(', ')}`);
    } finally {
      const admin = new URL(database.url);
      admin.pathname = '/postgres';
      await queryRows(admin.toString(), `DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    }
  });

  it('drops the database', async () => {
    const throwAway = await createTestDatabase();
    const name = new URL(throwAway.url).pathname.slice(1);

    await throwAway.drop();

    const admin = new URL(database.url);
    admin.pathname = '/postgres';
    const rows = await queryRows(admin.toString(), `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
    expect(rows).toHaveLength(0);
  });

  it('copies one template into databases that are independent of each other, several at once', async () => {
    const copies = await Promise.all([1, 2, 3, 4].map(() => createTestDatabase()));
    try {
      await queryRows(
        copies[0].url,
        "INSERT INTO accounts (id, name) VALUES ('acct_only_in_first', 'first')",
      );

      const counts = await Promise.all(
        copies.map(async (copy) => {
          const [{ count }] = await queryRows<{ count: number }>(
            copy.url,
            "SELECT count(*)::int AS count FROM accounts WHERE id = 'acct_only_in_first'",
          );
          return count;
        }),
      );
      expect(counts).toEqual([1, 0, 0, 0]);
      const [{ applied }] = await queryRows<{ applied: number }>(
        copies[3].url,
        'SELECT count(*)::int AS applied FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      );
      expect(applied).toBe(MIGRATION_NAMES.length);
    } finally {
      await Promise.all(copies.map((copy) => copy.drop()));
    }
  });
});
