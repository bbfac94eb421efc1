import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EngineProcess } from './engine-process';
import { freeLoopbackPortRange } from './loopback-port.util';

/**
 * A throw-away Postgres server of its own (initdb in a temporary folder) that accepts TLS connections
 * only, with a self-signed certificate for 127.0.0.1: what a managed Postgres looks like to the
 * gateway, on loopback. Postgres refuses to run as root, so a root test runs it as `postgres`.
 */
export class TlsPostgresProcess {
  private constructor(
    readonly port: number,
    /** The server's certificate, which is also its own root (sslrootcert). */
    readonly certificatePath: string,
    private readonly directory: string,
    private readonly server: EngineProcess,
  ) {}

  static async start(): Promise<TlsPostgresProcess> {
    const port = await freeLoopbackPortRange(1);
    const directory = mkdtempSync(join(tmpdir(), 'gw-tls-postgres-'));
    const dataDirectory = join(directory, 'data');
    const certificatePath = join(directory, 'server.crt');
    const keyPath = join(directory, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        keyPath,
        '-out',
        certificatePath,
      ],
      { stdio: 'ignore' },
    );
    chmodSync(keyPath, 0o600);
    const owner = postgresOwner();
    if (owner) {
      chownSync(directory, owner.uid, owner.gid);
      chownSync(keyPath, owner.uid, owner.gid);
      chownSync(certificatePath, owner.uid, owner.gid);
    }
    const binaries = postgresBinaries();
    execFileSync(
      join(binaries, 'initdb'),
      ['-D', dataDirectory, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'],
      {
        stdio: 'ignore',
        ...(owner ?? {}),
      },
    );
    // TLS only: a connection without it is refused, as a managed Postgres that enforces TLS does.
    writeFileSync(
      join(dataDirectory, 'pg_hba.conf'),
      [
        'local all all trust',
        'hostssl all all 127.0.0.1/32 trust',
        'hostnossl all all 0.0.0.0/0 reject',
        '',
      ].join('\n'),
    );
    if (owner) chownSync(join(dataDirectory, 'pg_hba.conf'), owner.uid, owner.gid);
    const server = EngineProcess.start(
      'postgres',
      join(binaries, 'postgres'),
      [
        '-D',
        dataDirectory,
        '-p',
        String(port),
        '-k',
        directory,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'ssl=on',
        '-c',
        `ssl_cert_file=${certificatePath}`,
        '-c',
        `ssl_key_file=${keyPath}`,
        '-c',
        'fsync=off',
      ],
      owner ?? {},
    );
    const postgres = new TlsPostgresProcess(port, certificatePath, directory, server);
    await postgres.untilAnswering();
    return postgres;
  }

  /** A URL of database `database` on this server with the given query (sslmode and friends). */
  url(database: string, query: string): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}${query ? `?${query}` : ''}`;
  }

  async stop(): Promise<void> {
    await this.server.stop('SIGINT');
    rmSync(this.directory, { recursive: true, force: true });
  }

  private async untilAnswering(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const client = new Client({
        connectionString: this.url('postgres', 'sslmode=no-verify'),
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return;
      } catch (error) {
        if (!this.server.running || Date.now() > deadline) {
          throw new Error(`Postgres with TLS did not start: ${String(error)} ${this.server.describe()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}

/** The folder of Debian's Postgres server binaries (initdb, postgres) of the installed major version. */
function postgresBinaries(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no Postgres server installed under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
