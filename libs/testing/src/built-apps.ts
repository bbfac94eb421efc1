import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildOnce } from './build-once';
import { sharedBuildDirectory } from './test-run-files';

const ROOT = join(__dirname, '..', '..', '..');

/** The apps a test may start from the production build. */
export type BuiltApp = 'gateway' | 'worker-text' | 'worker-image' | 'worker-video' | 'worker-assets';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Set by npm test (tools/test.mjs) to a snapshot of the whole build, console included, that it made of
 * this tree just before Jest started. Hard links to it are that build in a tenth of a second, where a
 * build takes 4 to 8 s of CPU; files are only ever replaced, never written in place, so a link never
 * changes under a running process.
 */
const FRESH_BUILD_VARIABLE = 'GATEWAY_TEST_FRESH_BUILD';

/** tools/build.mjs, or links to npm test's, into `folder` (inside the repository: node_modules resolves). */
function runBuild(folder: string, withConsole: boolean): void {
  const fresh = process.env[FRESH_BUILD_VARIABLE];
  rmSync(folder, { recursive: true, force: true });
  const result =
    fresh === undefined
      ? spawnSync(process.execPath, buildArguments(folder, withConsole), { cwd: ROOT, encoding: 'utf8' })
      : spawnSync('cp', ['-al', fresh, folder], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed: ${result.stderr}`);
}

function buildArguments(folder: string, withConsole: boolean): string[] {
  const args = [join(ROOT, 'tools', 'build.mjs'), '--out-dir', relative(ROOT, folder)];
  if (!withConsole) args.push('--skip-console');
  return args;
}

// perf-machinery: shared-test-build (docs/performance-machinery.md)
/**
 * The production build (tools/build.mjs) in a folder of its own, for tests about what happens to the
 * processes themselves: an unhandled error that ends one, a signal, a deadline. Its own folder, so
 * that another run rebuilding dist/ cannot pull files from under a process that is running.
 *
 * Under Jest's integration project the folder is the run's (global-setup.js names it, the teardown
 * removes it), built by the first test file that asks and shared by the others: a build is about 3 s
 * of CPU, and a dozen files start built processes.
 */
export class BuiltApps {
  private constructor(
    private readonly folder: string,
    /** Whether this instance made the folder for itself, and so removes it. */
    private readonly owned: boolean,
  ) {}

  /** `console: true` also bundles the operator console (a few seconds of Vite) for tests that open it. */
  static build(options: { console?: boolean } = {}): BuiltApps {
    const withConsole = options.console === true;
    const shared = sharedBuildDirectory();
    if (shared !== undefined) {
      const folder = join(shared, withConsole ? 'with-console' : 'apps');
      buildOnce(folder, () => runBuild(folder, withConsole));
      return new BuiltApps(folder, false);
    }
    const folder = join(ROOT, 'tmp', `test-build-${randomBytes(6).toString('hex')}`);
    runBuild(folder, withConsole);
    return new BuiltApps(folder, true);
  }

  /** Where the console's build is (CONSOLE_DIR for a gateway started from here). */
  get consoleDirectory(): string {
    return join(this.folder, 'apps', 'console');
  }

  start(app: BuiltApp, env: Record<string, string>): AppProcess {
    const child = spawn(process.execPath, [join(this.folder, 'apps', app, 'src', 'main.js')], {
      cwd: ROOT,
      // A worker's metrics listener stays off unless the test gives it a port: test workers must not
      // take the default ports (9101–9104) of a demo running on the same machine.
      env: { PATH: process.env.PATH ?? '', WORKER_METRICS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(app, child);
  }

  /** Removes a folder of its own; the run's shared one stays for the run's other files. */
  remove(): void {
    if (this.owned) rmSync(this.folder, { recursive: true, force: true });
  }
}

/** A started app: every line it wrote (standard output and error), and how it ended. */
export class AppProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<ProcessExit>;
  private exit: ProcessExit | undefined;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        const lines = (pending + text).split('\n');
        pending = lines.pop() ?? '';
        this.lines.push(...lines.filter((line) => line !== ''));
      });
    }
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} did not start`);
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Lines that are not one JSON object each: anything that bypassed the structured logger. */
  unstructuredLines(): string[] {
    return this.lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
  }

  /** Parsed log lines whose message is `message`. */
  logged(message: string): Array<Record<string, unknown>> {
    return this.lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === message);
  }

  /** Stops the process if it is still running (SIGKILL: for teardown only). */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
