import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EngineProcess } from './engine-process';
import { freeLoopbackPortRange } from './loopback-port.util';

export interface PgBouncerOptions {
  /** Where Postgres listens. */
  postgresPort?: number;
  /** Server connections per database and user: what the processes behind it share. */
  poolSize?: number;
}

/**
 * Debian's PgBouncer in transaction mode on loopback, in front of the local Postgres (trust
 * authentication: `auth_type = any`, every database reachable as `postgres`). PgBouncer refuses to run
 * as root, so a root test runs it as the `postgres` user, with its files in a folder of its own.
 */
export class PgBouncerProcess {
  private process: EngineProcess;

  private constructor(
    readonly port: number,
    private readonly directory: string,
    private readonly configPath: string,
  ) {
    this.process = PgBouncerProcess.spawn(configPath);
  }

  static async start(options: PgBouncerOptions = {}): Promise<PgBouncerProcess> {
    const port = await freeLoopbackPortRange(1);
    const directory = mkdtempSync(join(tmpdir(), 'gw-pgbouncer-'));
    const configPath = join(directory, 'pgbouncer.ini');
    writeFileSync(
      configPath,
      [
        '[databases]',
        `* = host=127.0.0.1 port=${options.postgresPort ?? 5432} user=postgres`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = any',
        'pool_mode = transaction',
        `default_pool_size = ${options.poolSize ?? 20}`,
        'max_client_conn = 1000',
        `logfile = ${join(directory, 'pgbouncer.log')}`,
        `pidfile = ${join(directory, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
    const owner = postgresOwner();
    if (owner) chownSync(directory, owner.uid, owner.gid);
    const bouncer = new PgBouncerProcess(port, directory, configPath);
    await bouncer.untilAnswering();
    return bouncer;
  }

  /** The URL of `databaseUrl`'s database through this PgBouncer. */
  urlOf(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Stops PgBouncer at once (every client connection drops) and starts it again; answers how long it was away. */
  async restart(): Promise<number> {
    const startedAt = Date.now();
    await this.process.stop('SIGTERM');
    this.process = PgBouncerProcess.spawn(this.configPath);
    await this.untilAnswering();
    return Date.now() - startedAt;
  }

  async stop(): Promise<void> {
    await this.process.stop('SIGTERM');
    rmSync(this.directory, { recursive: true, force: true });
  }

  private static spawn(configPath: string): EngineProcess {
    const owner = postgresOwner();
    return EngineProcess.start(
      'pgbouncer',
      'pgbouncer',
      [configPath],
      owner ? { uid: owner.uid, gid: owner.gid } : {},
    );
  }

  private async untilAnswering(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const client = new Client({
        host: '127.0.0.1',
        port: this.port,
        user: 'postgres',
        database: 'postgres',
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`PgBouncer did not answer: ${String(error)} ${this.process.describe()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}

/** The `postgres` user when this test runs as root (PgBouncer will not), else nobody to switch to. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
