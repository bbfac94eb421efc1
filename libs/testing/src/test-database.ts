import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const runFile = promisify(execFile);
const projectRoot = join(__dirname, '..', '..', '..');

/** The server's maintenance database, from which test databases are created and dropped. */
export const TEST_POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const DROP_WAIT_ATTEMPTS = 50;
const DROP_WAIT_INTERVAL_MS = 20;

export interface TestDatabase {
  /** Connection string of the new, fully migrated database. */
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/**
 * A throw-away database with every migration applied, so that test files never share state with each
 * other or with a running demo. The migrations run through the project's own runner in a child process,
 * exactly as a deployment runs them (Jest's CommonJS runtime cannot load the ESM runner in-process).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  await runOnAdminDatabase(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    await runFile(process.execPath, [join(projectRoot, 'tools', 'migrate.mjs'), 'deploy', '--quiet'], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: url.toString() },
    });
  } catch (error) {
    await dropDatabase(name);
    throw new Error(`migrating test database ${name} failed: ${describeChildFailure(error)}`);
  }
  return { url: url.toString(), drop: () => dropDatabase(name) };
}

/**
 * pg's Pool.end() resolves before its connections have closed; a forced drop at that moment kills them
 * and their clients raise unhandled errors. So the drop first gives connections a moment to leave, and
 * forces only those that linger.
 */
async function dropDatabase(name: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    for (let attempt = 0; attempt < DROP_WAIT_ATTEMPTS; attempt += 1) {
      const { rows } = await client.query<{ connections: number }>(
        'SELECT count(*)::int AS connections FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0]?.connections === 0) break;
      await new Promise((resolve) => setTimeout(resolve, DROP_WAIT_INTERVAL_MS));
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function runOnAdminDatabase(statement: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function describeChildFailure(error: unknown): string {
  if (error && typeof error === 'object' && 'stderr' in error && typeof error.stderr === 'string') {
    return error.stderr.trim() || String(error);
  }
  return String(error);
}
