import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineProcess } from './engine-process';
import { freeLoopbackPortRange } from './loopback-port.util';

/**
 * Debian's HAProxy on loopback in front of gateway replicas: round robin, each replica checked on its
 * readiness route, a connection refused by a dead replica retried on another one. It fails open: when
 * no replica is ready (a shared dependency's blip, such as a Redis failover, makes every replica's
 * /readyz fail at once), it sends to all of them anyway instead of answering 503 to every request,
 * through the same replicas declared again as unchecked backups.
 */
export class HaproxyProcess {
  private constructor(
    readonly port: number,
    private readonly directory: string,
    private readonly process: EngineProcess,
  ) {}

  static async start(backendPorts: readonly number[]): Promise<HaproxyProcess> {
    const port = await freeLoopbackPortRange(1);
    const directory = mkdtempSync(join(tmpdir(), 'gw-haproxy-'));
    const configPath = join(directory, 'haproxy.cfg');
    writeFileSync(
      configPath,
      [
        'global',
        '  maxconn 4096',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  retries 3',
        // A request that could not reach one replica (connection refused) is sent to another; one that
        // reached a replica is never sent twice (HAProxy retries connection failures only).
        '  option redispatch',
        'frontend public',
        `  bind 127.0.0.1:${port}`,
        '  default_backend gateways',
        'backend gateways',
        '  balance roundrobin',
        '  option httpchk GET /readyz',
        '  default-server inter 500ms fall 2 rise 1',
        '  option allbackups',
        ...backendPorts.map((backend, index) => `  server gateway${index + 1} 127.0.0.1:${backend} check`),
        ...backendPorts.map(
          (backend, index) => `  server gateway${index + 1}-open 127.0.0.1:${backend} backup`,
        ),
        '',
      ].join('\n'),
    );
    const process = EngineProcess.start('haproxy', 'haproxy', ['-db', '-f', configPath]);
    const proxy = new HaproxyProcess(port, directory, process);
    await proxy.untilListening();
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await this.process.stop('SIGTERM');
    rmSync(this.directory, { recursive: true, force: true });
  }

  private async untilListening(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (!this.process.running) throw new Error(`HAProxy ended: ${this.process.describe()}`);
      try {
        await fetch(`${this.url}/healthz`);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`HAProxy did not listen: ${this.process.describe()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}
