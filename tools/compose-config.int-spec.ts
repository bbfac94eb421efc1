import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * docker-compose.yml as the Compose client reads it (Debian's docker-compose 1.29; there is no engine
 * here, and `config` needs none): valid, and a production topology that `docker compose up --scale
 * gateway=3 --scale worker-video=4` can start. .ci/run installs the client when it is missing.
 */
const ROOT = join(__dirname, '..');
const SCALED_SERVICES = ['gateway', 'worker-video', 'worker-text', 'worker-image', 'worker-assets'];
const APP_SERVICES = ['gateway', 'admin', ...SCALED_SERVICES.slice(1)];
/** What the processes allow after SHUTDOWN_GRACE_MS for closing connections (CLOSE_MARGIN_MS). */
const CLOSE_MARGIN_MS = 5_000;

/** The two variables the file marks mandatory; values of the right shape, not secrets. */
const MANDATORY = {
  MASTER_KEY: 'ab'.repeat(32),
  ADMIN_TOKEN: 'compose-check-admin-token',
};

interface ComposeService {
  container_name?: string;
  ports?: Array<string | { published?: string | number; target?: number }>;
  environment?: Record<string, string | null>;
  healthcheck?: { test?: string[]; disable?: boolean };
  stop_grace_period?: string;
  deploy?: { resources?: { limits?: { cpus?: string | number; memory?: string } } };
  image?: string;
  volumes?: unknown[];
  profiles?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
}

function compose(args: string[], env: Record<string, string>) {
  return spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    // Only PATH and what the test gives: a variable of the developer's shell must not fill a gap.
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

/** The client prints YAML only (1.29 has no --format json); the client's own Python parser reads it back. */
function resolvedConfig(env: Record<string, string>): ComposeFile {
  const printed = compose(['config'], env);
  if (printed.status !== 0) throw new Error(`docker-compose config failed: ${printed.stderr}`);
  const parsed = spawnSync(
    'python3',
    ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'],
    { input: printed.stdout, encoding: 'utf8' },
  );
  if (parsed.status !== 0) throw new Error(`could not read the config back: ${parsed.stderr}`);
  return JSON.parse(parsed.stdout) as ComposeFile;
}

/** "40s", "1m30s", "500ms" → milliseconds, as Compose reads a duration. */
function durationMs(value: string): number {
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  }
  return total;
}

describe('docker-compose.yml (docker-compose config)', () => {
  let config: ComposeFile;

  beforeAll(() => {
    config = resolvedConfig(MANDATORY);
  });

  it('passes `docker-compose config -q` with the mandatory variables, and names them when they are missing', () => {
    expect(compose(['config', '-q'], MANDATORY).status).toBe(0);
    const missing = compose(['config', '-q'], { MASTER_KEY: MANDATORY.MASTER_KEY });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('ADMIN_TOKEN');
  });

  it('runs a balancer, public replicas, one admin instance and every worker', () => {
    expect(Object.keys(config.services).sort()).toEqual(
      expect.arrayContaining([
        'balancer',
        'gateway',
        'admin',
        'postgres',
        'redis',
        'migrate',
        ...SCALED_SERVICES,
      ]),
    );
    expect(config.services['balancer'].image).toMatch(/^haproxy:/);
  });

  it('lets every scaled service run several replicas: no container name, no published host port', () => {
    const clashing = SCALED_SERVICES.filter(
      (name) =>
        config.services[name].container_name !== undefined || (config.services[name].ports ?? []).length > 0,
    );
    expect(clashing).toEqual([]);
  });

  it('publishes each host port once: the balancer for clients, the admin instance on loopback only', () => {
    const published = Object.entries(config.services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => ({
        name,
        port: typeof port === 'string' ? port : String(port.published),
      })),
    );
    const hostPorts = published.map(({ port }) => port.split(':').slice(-2, -1)[0] ?? port);
    expect(new Set(hostPorts).size).toBe(hostPorts.length);
    expect(published.map(({ name }) => name).sort()).toEqual(['admin', 'balancer']);
    expect(published.find(({ name }) => name === 'admin')?.port).toMatch(/^127\.0\.0\.1:/);
  });

  it('gives ADMIN_TOKEN and the admin API to the admin instance only', () => {
    const adminSurface = APP_SERVICES.map((name) => {
      const environment = config.services[name].environment ?? {};
      return { name, enabled: environment['ADMIN_API_ENABLED'], hasToken: 'ADMIN_TOKEN' in environment };
    });
    expect(adminSurface).toEqual(
      APP_SERVICES.map((name) =>
        name === 'admin'
          ? { name, enabled: 'true', hasToken: true }
          : { name, enabled: 'false', hasToken: false },
      ),
    );
  });

  it('waits longer than the shutdown grace period (and its closing margin) before killing an app', () => {
    const tooShort = APP_SERVICES.filter((name) => {
      const service = config.services[name];
      const graceMs = Number(service.environment?.['SHUTDOWN_GRACE_MS'] ?? Number.NaN);
      // Compose's default is 10 s; an unset grace is the processes' default, 10 s too.
      const stopMs = durationMs(service.stop_grace_period ?? '10s');
      return !(stopMs > (Number.isNaN(graceMs) ? 10_000 : graceMs) + CLOSE_MARGIN_MS);
    });
    expect(tooShort).toEqual([]);
  });

  it('has a health check and resource limits on every long-running service', () => {
    const longRunning = Object.entries(config.services).filter(([name]) => name !== 'migrate');
    // migrate is a one-shot job: the services that need the schema wait for it to exit 0.
    expect(
      longRunning.filter(([, service]) => !(service.healthcheck?.test?.length ?? 0)).map(([n]) => n),
    ).toEqual([]);
    const unlimited = longRunning.filter(([, service]) => {
      if (service.profiles?.includes('demo')) return false;
      const limits = service.deploy?.resources?.limits;
      return limits?.cpus === undefined || limits.memory === undefined;
    });
    expect(unlimited.map(([name]) => name)).toEqual([]);
  });

  it('checks each worker on the port its metrics listener is given', () => {
    for (const name of SCALED_SERVICES.slice(1)) {
      const service = config.services[name];
      const port = service.environment?.['WORKER_METRICS_PORT'];
      expect(port).toMatch(/^\d+$/);
      expect(service.healthcheck?.test?.join(' ')).toContain(`127.0.0.1:${port}/healthz`);
    }
  });

  it('keeps Redis from evicting queue keys and persists it to an append-only file', () => {
    const redis = config.services['redis'] as ComposeService & { command?: string[] };
    expect(redis.command?.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    expect(redis.command?.join(' ')).toMatch(/--appendonly yes/);
  });

  it('mounts a balancer configuration that HAProxy accepts', () => {
    const checked = spawnSync('haproxy', ['-c', '-f', join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg')], {
      encoding: 'utf8',
    });
    expect(checked.error).toBeUndefined();
    expect(checked.status).toBe(0);
    expect(config.services['balancer'].volumes?.map(String).join(' ')).toContain('haproxy.cfg');
  });
});
