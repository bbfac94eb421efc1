import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';

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

/**
 * What a started gateway has loaded, from the production build. Every module loaded is memory and
 * start time of each instance: packages that only a worker or the queue depths need stay unloaded
 * until first used. BullMQ is opened lazily (lazy-queue); an instance that serves /admin (this one)
 * loads the task library at its start, whose index once re-exported the workers' consumers and so
 * loaded BullMQ too: the library keeps those in its worker entry point (@gateway/tasks/worker).
 */
describe('the packages a built gateway loads', () => {
  const files = join(tmpdir(), `gateway-loaded-${randomBytes(6).toString('hex')}`);
  const preload = `${files}.preload.js`;
  const listing = `${files}.json`;
  let database: TestDatabase;
  let apps: BuiltApps;
  let gateway: AppProcess;
  let url: string;
  let adminToken: string;

  beforeAll(async () => {
    writeFileSync(preload, LISTING_PRELOAD);
    database = await createTestDatabase();
    apps = BuiltApps.build();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    adminToken = randomBytes(24).toString('hex');
    gateway = apps.start('gateway', {
      NODE_OPTIONS: `--require ${preload}`,
      LOADED_PACKAGES_FILE: listing,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `test-loaded-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: adminToken,
      MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    await untilListening(url, gateway);
  }, 120_000);

  afterAll(async () => {
    await gateway?.kill();
    await database?.drop();
    apps?.remove();
    for (const file of [preload, listing]) rmSync(file, { force: true });
  });

  /** The packages the gateway has loaded by now. */
  async function loadedPackages(): Promise<string[]> {
    rmSync(listing, { force: true });
    gateway.signal('SIGUSR2');
    await waitFor(async () => existsSync(listing));
    return JSON.parse(readFileSync(listing, 'utf8')) as string[];
  }

  it('has not loaded BullMQ or the S3 client once it is ready to serve', async () => {
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const loaded = await loadedPackages();

    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify', 'ioredis', 'pg']));
    expect(loaded).not.toContain('bullmq');
    expect(loaded).not.toContain('@aws-sdk/client-s3');
  });

  it('loads BullMQ when a scrape of /metrics reads the queue depths', async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(200);

    expect(await loadedPackages()).toContain('bullmq');
  });
});
