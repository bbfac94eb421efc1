import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const DATABASE_URL_MODULE = pathToFileURL(join(__dirname, 'database-url.mjs')).href;

/** Jest cannot import an ES module: the tool's own module is run by Node, as the quickstart runs it. */
async function evaluate(expression: string, env: Record<string, string | undefined> = {}): Promise<unknown> {
  const script = `const tool = await import(process.env.DATABASE_URL_MODULE);
    console.log(JSON.stringify((await (${expression})) ?? null));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DATABASE_URL_MODULE, ...env },
  });
  return JSON.parse(stdout);
}

interface Finished {
  code: number | null;
  output: string;
}

function runQuickstart(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'tools', 'quickstart.mjs'), '--skip-install', ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? null) : 0, output: stdout + stderr }),
    );
  });
}

describe('the quickstart database URL', () => {
  it('takes the user psql would when the URL names none: PGUSER, else the OS user', async () => {
    const bare = 'postgresql://127.0.0.1:5432/demo';
    await expect(
      evaluate(`tool.withDefaultUser('${bare}', { PGUSER: 'alice' }, () => 'root')`),
    ).resolves.toBe('postgresql://alice@127.0.0.1:5432/demo');
    await expect(evaluate(`tool.withDefaultUser('${bare}', {}, () => 'root')`)).resolves.toBe(
      'postgresql://root@127.0.0.1:5432/demo',
    );
    await expect(
      evaluate(`tool.withDefaultUser('postgresql://bob:pw@127.0.0.1:5432/demo', { PGUSER: 'alice' })`),
    ).resolves.toBe('postgresql://bob:pw@127.0.0.1:5432/demo');
  });

  it('logs in with the defaulted user where the server knows it', async () => {
    await expect(
      evaluate(`tool.databaseLoginProblem(tool.withDefaultUser('postgresql://127.0.0.1:5432/demo'))`, {
        PGUSER: 'postgres',
      }),
    ).resolves.toBeNull();
  });

  it('stops a quickstart whose user Postgres refuses with one line naming the fix, before migrating', async () => {
    const role = `no_such_role_${randomBytes(4).toString('hex')}`;
    const finished = await runQuickstart(
      ['--database-url', 'postgresql://127.0.0.1:5432/quickstart_refused'],
      {
        PGUSER: role,
      },
    );
    expect(finished.code).toBe(1);
    expect(finished.output).toContain(
      `quickstart: Postgres at 127.0.0.1:5432 refused user "${role}" (role "${role}" does not exist): ` +
        'name a user it knows in the URL, e.g. --database-url postgresql://postgres@127.0.0.1:5432/quickstart_refused, or set PGUSER.',
    );
    expect(finished.output).not.toMatch(/migrating|building/);
    expect(finished.output).not.toMatch(/^\s+at /m);
  });
});
