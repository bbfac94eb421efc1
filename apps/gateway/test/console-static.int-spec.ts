import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayHarness } from './gateway-harness';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";
const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("console");';

/** A GET whose path is sent exactly as written: fetch would resolve `..` before sending. */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest(
      { host: target.hostname, port: target.port, path, method: 'GET' },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function expectConsoleHeaders(headers: Headers): void {
  expect(headers.get('content-security-policy')).toBe(CSP);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('the console served at /console', () => {
  let harness: GatewayHarness;
  let build: string;

  beforeAll(async () => {
    build = mkdtempSync(join(tmpdir(), 'console-build-'));
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'index.html'), INDEX);
    writeFileSync(join(build, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
    writeFileSync(join(build, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    harness = await GatewayHarness.start({ CONSOLE_DIR: build });
  });
  afterAll(async () => {
    await harness.close();
    rmSync(build, { recursive: true, force: true });
  });

  it('serves index.html at /console and for every client-side route, revalidated on each load, with the CSP', async () => {
    for (const path of ['/console', '/console/', '/console/tasks', '/console/tasks/vid_abc?status=failed']) {
      const answer = await harness.request('GET', path);
      expect([path, answer.status, answer.text]).toEqual([path, 200, INDEX]);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expectConsoleHeaders(answer.headers);
    }
  });

  it('serves hashed assets for a year, immutable, and other files revalidated', async () => {
    const script = await harness.request('GET', '/console/assets/index-Ab12Cd34.js');
    expect([script.status, script.text]).toEqual([200, SCRIPT]);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectConsoleHeaders(script.headers);
    const icon = await harness.request('GET', '/console/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    const head = await fetch(`${harness.url}/console/assets/index-Ab12Cd34.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers a missing asset 404 (never index.html as a script), with the CSP', async () => {
    const answer = await harness.request('GET', '/console/assets/index-Old00000.js');
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('<html');
    expectConsoleHeaders(answer.headers);
    const post = await harness.request('POST', '/console', { body: {} });
    expect(post.status).toBe(404);
    expectConsoleHeaders(post.headers);
  });

  it('never serves a file outside the build folder', async () => {
    const secret = join(build, '..', `${build.split('/').pop()}-secret.txt`);
    writeFileSync(secret, 'outside');
    try {
      for (const path of [
        `/console/../${secret.split('/').pop()}`,
        `/console/%2e%2e/${secret.split('/').pop()}`,
        '/console/..%2f..%2fetc%2fpasswd',
        '/console/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
        '/console/assets/..%2f..%2f..%2fetc%2fpasswd',
        '/console/%00',
      ]) {
        const answer = await rawGet(harness.url, path);
        expect([path, answer.status < 500]).toEqual([path, true]);
        expect(answer.body).not.toContain('outside');
        expect(answer.body).not.toContain('root:');
      }
    } finally {
      rmSync(secret, { force: true });
    }
  });

  it('answers 503 with how to build it when the build folder is missing, and serves a build made later', async () => {
    const later = join(build, 'not-yet');
    const instance = await harness.startInstance({
      console: { ...harness.config.console, directory: later },
    });
    const missing = await harness.request('GET', '/console/overview', { baseUrl: instance.url });
    expect(missing.status).toBe(503);
    expect(missing.text).toContain('npm run build');
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expectConsoleHeaders(missing.headers);
    mkdirSync(later);
    writeFileSync(join(later, 'index.html'), INDEX);
    const built = await harness.request('GET', '/console/overview', { baseUrl: instance.url });
    expect([built.status, built.text]).toEqual([200, INDEX]);
  });

  it('with CONSOLE_ENABLED=false: no /console (404, no console headers) and no session routes', async () => {
    const off = await harness.startInstance({ console: { ...harness.config.console, enabled: false } });
    const page = await harness.request('GET', '/console', { baseUrl: off.url });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-security-policy')).toBeNull();
    const signIn = await harness.request('POST', '/admin/session', {
      baseUrl: off.url,
      body: { token: harness.adminToken },
    });
    expect(signIn.status).toBe(404);
    expect(signIn.headers.get('set-cookie')).toBeNull();
    // A session made on an instance with the console is no credential where the console is off.
    const made = await harness.request('POST', '/admin/session', { body: { token: harness.adminToken } });
    const cookie = (made.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^gw_console=/);
    expect((await harness.request('GET', '/admin/accounts', { headers: { cookie } })).status).toBe(200);
    expect(
      (await harness.request('GET', '/admin/accounts', { baseUrl: off.url, headers: { cookie } })).status,
    ).toBe(401);
  });
});
