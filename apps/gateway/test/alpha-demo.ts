import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import type { GatewayConfig } from '@gateway/config';
import type { JournalEntry } from '@gateway/simulators';
import { waitFor } from '@gateway/testing';
import type { GatewayHarness, GatewayInstance, HttpAnswer } from './gateway-harness';
import { newVideoAccount } from './video-demo';

/** The alpha family (gateway interface), every model priced alike. */
export const ALPHA_MODELS = [
  'alphaq3-pro',
  'alphaq2-pro',
  'alphaq2-turbo',
  'alphaq2-pro-fast',
  'alphaq1',
  'alphaq1-classic',
  'alpha2.0',
];
export const ALPHA_PER_CALL = 2_000n;
export const ALPHA_PER_SECOND: Readonly<Record<string, bigint>> = {
  '540p': 5_000n,
  '720p': 10_000n,
  '1080p': 20_000n,
};

export interface AlphaDemo {
  key: string;
  keyId: string;
  accountId: string;
  channelId: string;
}

/** The alpha envelope of upstreams §3.6, as the gateway's alpha routes answer errors. */
export interface AlphaError {
  code: number;
  reason: string;
  message: string;
  metadata: { trace_id: string };
}

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
/** A blank PNG, compressed: a few hundred bytes, so that the simulator's journal keeps whole bodies. */
export function pngBytes(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { filterType: 0 });
}

export function dataUrlOf(mimeType: string, bytes: Buffer): string {
  return `data:${mimeType};base64,${bytes.toString('base64')}`;
}

/** Prices of the alpha models, an alpha channel on the simulator, an account and a key. */
export async function seedAlphaDemo(harness: GatewayHarness): Promise<AlphaDemo> {
  const perVideoSecond = Object.fromEntries(
    Object.entries(ALPHA_PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
  );
  await harness.adminOk('PUT', '/admin/prices', {
    prices: ALPHA_MODELS.map((model) => ({ model, perCall: ALPHA_PER_CALL.toString(), perVideoSecond })),
  });
  const channelId = await harness.createChannel({
    type: 'alpha',
    name: `alpha-${randomBytes(3).toString('hex')}`,
    secret: 'sim-alpha-key',
    models: ALPHA_MODELS.map((model) => ({ model })),
  });
  return { ...(await newVideoAccount(harness)), channelId };
}

/**
 * A gateway instance whose SSRF-safe fetcher may reach the simulator (the alpha creations' URLs) and
 * the given local servers (URL images), each by its port only, as SSRF_ALLOW_HOSTS would allow them.
 */
export function startTrustingInstance(
  harness: GatewayHarness,
  hosts: string[],
  overrides: Partial<GatewayConfig> = {},
): Promise<GatewayInstance> {
  return harness.startInstance({
    ssrfAllowHosts: [new URL(harness.simulatorUrl).host, ...hosts],
    ...overrides,
  });
}

/** The alpha submissions the simulator received whose body contains `marker`, oldest first. */
export async function alphaSubmissions(harness: GatewayHarness, marker: string): Promise<JournalEntry[]> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
  const entries = (await response.json()) as JournalEntry[];
  return entries.filter(
    (entry) => entry.method === 'POST' && entry.path.startsWith('/ent/v2/') && entry.body.includes(marker),
  );
}

/** Waits for the one alpha submission carrying `marker` and answers its endpoint and body. */
export async function alphaSubmissionOf(
  harness: GatewayHarness,
  marker: string,
): Promise<{ endpoint: string; body: Record<string, unknown> }> {
  await waitFor(async () => (await alphaSubmissions(harness, marker)).length === 1, 30_000);
  const [entry] = await alphaSubmissions(harness, marker);
  return {
    endpoint: entry.path.slice('/ent/v2/'.length),
    body: JSON.parse(entry.body) as Record<string, unknown>,
  };
}

/** The holds of an account: nothing may be held for a refused request. */
export async function holdsOf(harness: GatewayHarness, accountId: string): Promise<number> {
  const [row] = await harness.query<{ n: number }>(
    'select count(*)::int as n from holds where account_id = $1',
    [accountId],
  );
  return row.n;
}

/** Polls a query until `done` says the answer is final. */
export async function until<T>(
  ask: () => Promise<HttpAnswer<T>>,
  done: (answer: HttpAnswer<T>) => boolean,
): Promise<HttpAnswer<T>> {
  let answer = await ask();
  await waitFor(async () => {
    answer = await ask();
    return done(answer);
  }, 30_000);
  return answer;
}

/** What an image server answers for one path: the file's bytes, or a header and the size it claims. */
export interface ServedImage {
  /** The first bytes of the file; the rest reads as zeros. */
  head: Buffer;
  /** The file's size (at least `head`'s length). */
  size: number;
  /** Whether a Range is answered 206 with the slice (default), or ignored with the whole file. */
  ranges?: boolean;
}

/** A loopback image server that records each request's path and Range header. */
export interface ImageServer {
  host: string;
  url(path: string): string;
  requests: Array<{ path: string; range: string | undefined; bytesSent: number }>;
  close(): Promise<void>;
}

const RANGE = /^bytes=(\d+)-(\d*)$/;

export async function startImageServer(files: Record<string, ServedImage>): Promise<ImageServer> {
  const requests: ImageServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    const file = files[path];
    const range = request.headers.range;
    if (!file) {
      requests.push({ path, range, bytesSent: 0 });
      response.writeHead(404).end();
      return;
    }
    const asked = file.ranges === false || range === undefined ? undefined : RANGE.exec(range);
    const start = asked ? Number(asked[1]) : 0;
    const end = asked && asked[2] !== '' ? Math.min(Number(asked[2]), file.size - 1) : file.size - 1;
    const body = Buffer.alloc(end - start + 1);
    file.head.copy(body, 0, start, Math.min(file.head.length, end + 1));
    requests.push({ path, range, bytesSent: body.length });
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (asked) headers['content-range'] = `bytes ${start}-${end}/${file.size}`;
    response.writeHead(asked ? 206 : 200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    url: (path) => `http://${host}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
