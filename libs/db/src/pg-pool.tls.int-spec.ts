import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TlsPostgresProcess } from '@gateway/testing';
import { createPgPool } from './pg-pool';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * The `sslmode` options of DATABASE_URL (docs/operations.md, Postgres) against a Postgres that accepts
 * TLS only, with a self-signed certificate: node-postgres's reading of each mode, which is not libpq's
 * (`require` verifies the certificate as `verify-full` does).
 */
describe('DATABASE_URL sslmode against a TLS-only Postgres with a self-signed certificate', () => {
  let postgres: TlsPostgresProcess;

  beforeAll(async () => {
    postgres = await TlsPostgresProcess.start();
  }, 60_000);

  afterAll(async () => {
    await postgres?.stop();
  });

  /** Whether a pool on `query`'s URL connects, and over TLS; the error message when it does not. */
  async function connectWith(query: string): Promise<{ tls: boolean } | { error: string }> {
    const pool = createPgPool(postgres.url('postgres', query), 1);
    pool.on('error', () => undefined);
    try {
      const { rows } = await pool.query<{ ssl: boolean }>(
        'select ssl from pg_stat_ssl where pid = pg_backend_pid()',
      );
      return { tls: rows[0].ssl };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    } finally {
      await pool.end();
    }
  }

  it('verifies the server against the CA given in sslrootcert (verify-full)', async () => {
    expect(await connectWith(`sslmode=verify-full&sslrootcert=${postgres.certificatePath}`)).toEqual({
      tls: true,
    });
  });

  it('refuses a certificate it cannot verify, with require as with verify-full', async () => {
    for (const mode of ['verify-full', 'require']) {
      expect(await connectWith(`sslmode=${mode}`)).toEqual({
        error: expect.stringMatching(/self[- ]signed certificate/),
      });
    }
  });

  it('encrypts without verifying only when told to (no-verify)', async () => {
    expect(await connectWith('sslmode=no-verify')).toEqual({ tls: true });
  });

  it('is refused by a server that requires TLS when TLS is off', async () => {
    expect(await connectWith('sslmode=disable')).toEqual({
      error: expect.stringMatching(/no encryption|SSL off/),
    });
  });
});

describe('migrations over TLS (tools/migrate.mjs)', () => {
  let postgres: TlsPostgresProcess;

  beforeAll(async () => {
    postgres = await TlsPostgresProcess.start();
  }, 60_000);

  afterAll(async () => {
    await postgres?.stop();
  });

  it('migrates a database on a TLS-only server through DATABASE_DIRECT_URL, verifying it', async () => {
    const direct = postgres.url('gateway_tls', `sslmode=verify-full&sslrootcert=${postgres.certificatePath}`);
    const migrated = spawnSync(process.execPath, [join(ROOT, 'tools', 'migrate.mjs'), 'deploy', '--quiet'], {
      cwd: ROOT,
      encoding: 'utf8',
      // DATABASE_URL names a pooler that does not exist: migrations must take the direct URL.
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/gateway_tls',
        DATABASE_DIRECT_URL: direct,
      },
    });

    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    const pool = createPgPool(direct, 1);
    // The server's shutdown after the test may still reach this pool's closing connection.
    pool.on('error', () => undefined);
    const { rows } = await pool.query<{ applied: string }>(
      'select count(*) as applied from _prisma_migrations where finished_at is not null',
    );
    await pool.end();
    expect(Number(rows[0].applied)).toBeGreaterThan(0);
  }, 60_000);
});
