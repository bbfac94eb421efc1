import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * A server program a test starts (redis-server, pgbouncer, haproxy): its output kept for the failure
 * message, ended by its process id only.
 */
export class EngineProcess {
  readonly output: string[] = [];
  private readonly exited: Promise<void>;
  private ended = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.ended = true;
        resolve();
      }),
    );
    child.once('error', (error) => this.output.push(`spawn error: ${error.message}`));
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        this.output.push(text);
        if (this.output.length > 200) this.output.shift();
      });
    }
  }

  static start(name: string, command: string, args: string[], options: SpawnOptions = {}): EngineProcess {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    return new EngineProcess(name, child);
  }

  get running(): boolean {
    return !this.ended;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends `signal` and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.ended) return;
    this.child.kill(signal);
    await this.exited;
  }

  describe(): string {
    return `${this.name} (pid ${this.pid ?? '?'}): ${this.output.join('').slice(-2000)}`;
  }
}
