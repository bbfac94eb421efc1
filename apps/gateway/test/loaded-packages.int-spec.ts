import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { adminRequest, seedTextOverAdminApi } from './admin-seed';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';
import { sendTextCall } from './text-calls.client';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Preloaded into the gateway (NODE_OPTIONS): on SIGUSR2 it writes the packages (node_modules folders)
 * the process has loaded so far to LOADED_PACKAGES_FILE.
 */
const LISTING_PRELOAD = `
process.on('SIGUSR2', () => {
  const names = new Set();
  for (const path of Object.keys(require.cache)) {
    const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(path);
    if (match) names.add(match[1]);
  }
  // Renamed into place whole: the test waits for the file to appear.
  const fs = require('node:fs');
  fs.writeFileSync(process.env.LOADED_PACKAGES_FILE + '.part', JSON.stringify([...names]));
  fs.renameSync(process.env.LOADED_PACKAGES_FILE + '.part', process.env.LOADED_PACKAGES_FILE);
});
`;

/** Where a listing is written, and the gateway that writes it. */
interface ListedGateway {
  process: AppProcess;
  listing: string;
}

/** The packages `gateway` has loaded by now. */
async function loadedPackages({ process, listing }: ListedGateway): Promise<string[]> {
  rmSync(listing, { force: true });
  process.signal('SIGUSR2');
  await waitFor(async () => existsSync(listing));
  return JSON.parse(readFileSync(listing, 'utf8')) as string[];
}

/**
 * What a started gateway has loaded, from the production build. Every module loaded is memory and
 * start time of each instance: packages that only a worker or the queue depths need stay unloaded
 * until first used. BullMQ is opened lazily (lazy-queue); an instance that serves /admin (this one)
 * loads the task library at its start, whose index once re-exported the workers' consumers and so
 * loaded BullMQ too: the library keeps those in its worker entry point (@gateway/tasks/worker).
 * A public replica (no admin API) serves text without the ORM: its hot path writes with pg, and the
 * billing and db libraries keep what needs the Prisma client (the ledger audit, the client itself)
 * out of what the hold and its statement batcher import, so that no replica holds the generated
 * client and its runtime (about 1 MiB of live heap). class-validator is loaded part by part
 * (class-validator-parts): its index would load libphonenumber-js and most of validator.js, about 3 MiB
 * of heap that no check of the project uses.
 */
describe('the packages a built gateway loads', () => {
  const files = join(tmpdir(), `gateway-loaded-${randomBytes(6).toString('hex')}`);
  const preload = `${files}.preload.js`;
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let apps: BuiltApps;
  let admin: ListedGateway & { url: string };
  let replica: ListedGateway & { url: string };
  const adminToken = randomBytes(24).toString('hex');

  beforeAll(async () => {
    writeFileSync(preload, LISTING_PRELOAD);
    [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    apps = BuiltApps.build();
    const shared = {
      NODE_OPTIONS: `--require ${preload}`,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `test-loaded-${randomBytes(4).toString('hex')}`,
      MASTER_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    const start = async (name: string, env: Record<string, string>) => {
      const port = await freePort();
      const listing = `${files}.${name}.json`;
      const process = apps.start('gateway', {
        ...shared,
        ...env,
        PORT: String(port),
        LOADED_PACKAGES_FILE: listing,
      });
      return { process, listing, url: `http://127.0.0.1:${port}` };
    };
    [admin, replica] = await Promise.all([
      start('admin', { ADMIN_TOKEN: adminToken }),
      start('replica', { ADMIN_API_ENABLED: 'false', ADMIN_TOKEN: '' }),
    ]);
    await Promise.all([admin, replica].map((gateway) => untilListening(gateway.url, gateway.process)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([admin?.process.kill(), replica?.process.kill()]);
    await Promise.all([simulator?.close(), database?.drop()]);
    apps?.remove();
    rmSync(preload, { force: true });
    for (const gateway of [admin, replica]) if (gateway) rmSync(gateway.listing, { force: true });
  });

  it('has not loaded BullMQ or the S3 client once it is ready to serve', async () => {
    expect((await fetch(`${admin.url}/readyz`)).status).toBe(200);
    const loaded = await loadedPackages(admin);

    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify', 'ioredis', 'pg']));
    expect(loaded).not.toContain('bullmq');
    expect(loaded).not.toContain('@aws-sdk/client-s3');
    expect(loaded).toContain('class-validator');
    expect(loaded).not.toContain('libphonenumber-js');
  });

  it('loads BullMQ when a scrape of /metrics reads the queue depths', async () => {
    expect((await fetch(`${admin.url}/metrics`)).status).toBe(200);

    expect(await loadedPackages(admin)).toContain('bullmq');
  });

  it('a public replica serves both text routes, settled, without loading the Prisma client', async () => {
    const { key } = await seedTextOverAdminApi(admin.url, adminToken, simulator.url);
    const requestIds: string[] = [];
    for (const kind of ['native', 'openai'] as const) {
      // The replica hears of the new channels over Redis (the channel catalog): until then it knows none.
      let answer = await sendTextCall(replica.url, key, kind);
      await waitFor(async () => {
        if (answer.status !== 200) answer = await sendTextCall(replica.url, key, kind);
        return answer.status === 200;
      });
      requestIds.push(answer.requestId);
    }
    // Both settled (their log rows, each with a cost), so that the listing comes after all the calls do.
    let rows: { requestId: string; costMicros: string }[] = [];
    await waitFor(async () => {
      ({ items: rows } = await adminRequest<{ items: typeof rows }>(
        admin.url,
        adminToken,
        'GET',
        '/admin/logs',
      ));
      return rows.length === 2;
    });
    expect(rows.map((row) => row.requestId).sort()).toEqual([...requestIds].sort());
    expect(rows.every((row) => BigInt(row.costMicros) > 0n)).toBe(true);
    const loaded = await loadedPackages(replica);

    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify', 'pg', 'undici']));
    expect(loaded).not.toContain('@prisma/client');
    expect(loaded).not.toContain('@prisma/adapter-pg');
    expect(loaded).not.toContain('bullmq');
    expect(loaded).not.toContain('libphonenumber-js');
  });
});
