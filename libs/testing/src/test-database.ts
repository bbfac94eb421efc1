import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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
const TEMPLATE_COPY_ATTEMPTS = 20;
const TEMPLATE_COPY_RETRY_MS = 25;

export interface TestDatabase {
  /** Connection string of the new, fully migrated database. */
  url: string;
  /** Its name on the server (for faults made through TEST_POSTGRES_ADMIN_URL: postgres-outage.ts). */
  name: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/**
 * A throw-away database with every migration applied, so that test files never share state with each
 * other or with a running demo. It is a copy of one migrated template (CREATE DATABASE … TEMPLATE, a
 * file copy inside Postgres, about 50 ms), so a run of a hundred files migrates once instead of once
 * per file.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await migratedTemplate();
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  await createFromTemplate(name, template);
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => dropDatabase(name) };
}

let templateName: Promise<string> | undefined;

/**
 * The template's name carries a hash of every migration file, so a changed or added migration gets a
 * template of its own and an old one is never used. Jest workers (and parallel Jest runs) build it at
 * most once between them: the builder holds an advisory lock, migrates a database of a private name
 * through the project's own runner (in a child process, exactly as a deployment runs it; Jest's
 * CommonJS runtime cannot load the ESM runner in-process), then renames it into place, so nobody ever
 * copies a half-migrated template.
 */
function migratedTemplate(): Promise<string> {
  templateName ??= buildTemplateOnce().catch((error: unknown) => {
    templateName = undefined;
    throw error;
  });
  return templateName;
}

async function buildTemplateOnce(): Promise<string> {
  const name = `gw_template_${migrationsHash()}`;
  const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    if (await databaseExists(client, name)) return name;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    if (await databaseExists(client, name)) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await client.query(`CREATE DATABASE "${building}"`);
    const url = new URL(TEST_POSTGRES_ADMIN_URL);
    url.pathname = `/${building}`;
    try {
      await runFile(process.execPath, [join(projectRoot, 'tools', 'migrate.mjs'), 'deploy', '--quiet'], {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_URL: url.toString() },
      });
    } catch (error) {
      await dropDatabase(building);
      throw new Error(`migrating the test template ${building} failed: ${describeChildFailure(error)}`);
    }
    await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    return name;
  } finally {
    await client.end();
  }
}

function migrationsHash(): string {
  const folder = join(projectRoot, 'prisma', 'migrations');
  const hash = createHash('sha256');
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile())
    .map((file) => join(file.parentPath, file.name))
    .sort()) {
    hash.update(entry.slice(folder.length)).update(readFileSync(entry));
  }
  return hash.digest('hex').slice(0, 16);
}

async function databaseExists(client: Client, name: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rowCount === 1;
}

/**
 * Postgres refuses to copy a template while another session is connected to it (55006), which two
 * copies starting at the same moment can briefly be to each other; such a refusal is tried again.
 */
async function createFromTemplate(name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runOnAdminDatabase(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt >= TEMPLATE_COPY_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, TEMPLATE_COPY_RETRY_MS * attempt));
    }
  }
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
