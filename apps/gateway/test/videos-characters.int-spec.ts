import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JournalEntry } from '@gateway/simulators';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { pngOf } from './image-demo';

interface CharacterAnswer {
  id?: string;
  name?: string;
  created_at?: number;
  error?: { message: string; type: string; param: string | null; code: string };
}

/** A clip server on loopback: what the gateway may reach only when the operator allows it. */
interface ClipServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

const CHARACTERS_PATH = '/delta/v1/characters';
const CREDIT = 1_000_000n;
const CHARACTER_PRICE = 5_000n;

/** The smallest thing file-type reads as an MP4: an `ftyp` box (brand isom), then some payload. */
function mp4Clip(payloadBytes = 4096): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypisom', 'ascii'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'ascii'),
  ]);
  const mdat = Buffer.alloc(payloadBytes + 8, 7);
  mdat.writeUInt32BE(payloadBytes + 8, 0);
  mdat.write('mdat', 4, 'ascii');
  return Buffer.concat([ftyp, mdat]);
}

async function startClipServer(): Promise<ClipServer> {
  const hits: string[] = [];
  const files: Record<string, { type: string; body: Buffer }> = {
    '/clip.mp4': { type: 'video/mp4', body: mp4Clip() },
    // A server that claims a video and sends an image: the bytes decide.
    '/lying.mp4': { type: 'video/mp4', body: pngOf(8, 8) },
    '/notes.txt': { type: 'video/mp4', body: Buffer.from('not a video at all, just some words') },
    '/large.mp4': { type: 'video/mp4', body: mp4Clip(64 * 1024) },
  };
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const file = files[request.url ?? ''];
    if (!file) {
      response.writeHead(404).end('missing');
      return;
    }
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * `POST /delta/v1/characters` against the compat simulator: the gateway downloads the clip through
 * the SSRF-safe fetcher (a loopback clip server, allowed only on a second instance), checks it is a
 * video, and creates the character upstream with the clip and the name.
 */
describe('POST /delta/v1/characters', () => {
  let harness: GatewayHarness;
  let clips: ClipServer;
  let trusting: GatewayInstance;
  let key: string;
  let keyId: string;
  let accountId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    clips = await startClipServer();
    await harness.createChannel({
      type: 'compat',
      name: 'compat-delta',
      secret: 'sim-compat-key',
      models: [{ model: 'delta-2' }, { model: 'delta-2-pro' }],
    });
    // Started after the channel exists: its catalog loads it at start.
    trusting = await harness.startInstance({
      ssrfAllowHosts: [new URL(clips.url).host],
      safeFetchMaxBytes: 32 * 1024,
    });
    accountId = await harness.createAccount(CREDIT);
    ({ key, id: keyId } = await harness.createKey(accountId));
  });
  afterAll(async () => {
    await harness.close();
    await clips.close();
  });

  const create = (body: unknown, instance?: GatewayInstance) =>
    harness.request<CharacterAnswer>('POST', CHARACTERS_PATH, {
      body,
      headers: { authorization: `Bearer ${key}` },
      baseUrl: instance?.url,
    });

  /** Through the instance the calls go to: it reloads its prices before answering. */
  async function setCharacterPrice(micros: bigint): Promise<void> {
    const answer = await harness.request('PUT', '/admin/prices', {
      body: { prices: [{ model: 'delta-character', perCall: micros.toString() }] },
      headers: { authorization: `Bearer ${harness.adminToken}` },
      baseUrl: trusting.url,
    });
    expect(answer.status).toBeLessThan(300);
  }

  async function characterCreates(): Promise<JournalEntry[]> {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    const entries = (await response.json()) as JournalEntry[];
    return entries.filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos/characters');
  }

  it('creates a character from the clip, free while delta-character has no price', async () => {
    const before = (await characterCreates()).length;
    const answer = await create(
      { name: 'Captain', character_url: `${clips.url}/clip.mp4`, character_timestamps: '1.5,4' },
      trusting,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^char_/),
      name: 'Captain',
      created_at: expect.any(Number),
    });
    // The first-party wire takes the whole clip: the window is dropped, and the client is told.
    expect(answer.headers.get('x-gateway-warning')).toMatch(/character_timestamps/);
    const sent = (await characterCreates()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].form?.fields['name']).toBe('Captain');
    expect(sent[0].form?.files).toEqual([
      expect.objectContaining({ field: 'video', contentType: 'video/mp4', bytes: mp4Clip().length }),
    ]);
    await harness.settled();
    expect(await harness.ledgerTotals(accountId)).toEqual({ capture: 0n, credit: CREDIT });
    const logs = await harness.query<{ route: string; http_status: number; cost_micros: string }>(
      'select route, http_status, cost_micros::text from request_logs where key_id = $1 and http_status = 200',
      [keyId],
    );
    expect(logs).toEqual([{ route: CHARACTERS_PATH, http_status: 200, cost_micros: '0' }]);
  });

  it('charges the per-call price of delta-character once the operator sets one', async () => {
    await setCharacterPrice(CHARACTER_PRICE);
    const answer = await create(
      { model: 'delta-2-pro', character_url: `${clips.url}/clip.mp4`, character_timestamps: [0, 10] },
      trusting,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('character');
    const books = await harness.settledBooks(accountId);
    expect(books.balance).toBe(CREDIT - CHARACTER_PRICE);
    // A refusal after the hold releases it: nothing more is charged.
    const refused = await create(
      { character_url: `${clips.url}/lying.mp4`, character_timestamps: '0,5' },
      trusting,
    );
    expect(refused.status).toBe(400);
    expect((await harness.settledBooks(accountId)).balance).toBe(CREDIT - CHARACTER_PRICE);
    await setCharacterPrice(0n);
  });

  it.each([
    ['loopback', () => `${clips.url}/clip.mp4`],
    ['a name resolving to loopback', () => `http://localhost:${new URL(clips.url).port}/clip.mp4`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/clip.mp4'],
    ['a private range', () => 'http://10.0.0.7/clip.mp4'],
  ])('refuses a clip at %s without fetching it (the default policy)', async (_name, urlOf) => {
    const hitsBefore = clips.hits.length;
    const creates = (await characterCreates()).length;
    const answer = await create({ character_url: urlOf(), character_timestamps: '1,3' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      param: 'character_url',
      message: expect.stringMatching(/non-public address/),
    });
    expect(clips.hits.length).toBe(hitsBefore);
    expect((await characterCreates()).length).toBe(creates);
  });

  it.each([
    ['an image sent as video/mp4', '/lying.mp4', 400, /not a video \(its bytes are image\/png\)/],
    ['text sent as video/mp4', '/notes.txt', 400, /not a video/],
    ['a missing clip', '/missing.mp4', 400, /answered HTTP 404/],
    ['a clip over SAFE_FETCH_MAX_BYTES', '/large.mp4', 413, /too large/],
  ])('refuses %s, creating nothing upstream', async (_name, path, status, message) => {
    const creates = (await characterCreates()).length;
    const answer = await create(
      { character_url: `${clips.url}${path}`, character_timestamps: '1,3' },
      trusting,
    );
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatchObject({
      param: 'character_url',
      message: expect.stringMatching(message),
    });
    expect((await characterCreates()).length).toBe(creates);
  });

  it.each([
    ['missing', undefined],
    ['one number', '3'],
    ['a window of half a second', '2,2.5'],
    ['a window of 11 seconds', [0, 11]],
    ['a window backwards', '6,2'],
    ['words', 'start,end'],
  ])('refuses character_timestamps %s before fetching anything', async (_name, character_timestamps) => {
    const hitsBefore = clips.hits.length;
    const answer = await create({ character_url: `${clips.url}/clip.mp4`, character_timestamps }, trusting);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'character_timestamps' });
    expect(clips.hits.length).toBe(hitsBefore);
  });

  it.each([
    ['__proto__', '"__proto__":{"name":"x"}'],
    ['constructor', '"constructor":{"prototype":{}}'],
  ])('refuses a %s key before fetching anything, naming it', async (field, member) => {
    const hitsBefore = clips.hits.length;
    const answer = await harness.request<CharacterAnswer>('POST', CHARACTERS_PATH, {
      rawBody: `{"character_url":"${clips.url}/clip.mp4","character_timestamps":"1,3",${member}}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      baseUrl: trusting.url,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'invalid_request_error',
      param: field,
      message: expect.stringContaining(`${field} uses the reserved key '${field}'`),
    });
    expect(clips.hits.length).toBe(hitsBefore);
  });

  it('answers a delta model no channel serves 404, another family 400, and no key 401', async () => {
    const unserved = await create(
      { model: 'delta-9', character_url: `${clips.url}/clip.mp4`, character_timestamps: '1,3' },
      trusting,
    );
    expect(unserved.status).toBe(404);
    expect(unserved.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    const otherFamily = await create(
      { model: 'epsilon_3_1', character_url: `${clips.url}/clip.mp4`, character_timestamps: '1,3' },
      trusting,
    );
    expect(otherFamily.status).toBe(400);
    expect(otherFamily.body.error?.param).toBe('model');
    const anonymous = await harness.request<CharacterAnswer>('POST', CHARACTERS_PATH, {
      body: { character_url: `${clips.url}/clip.mp4`, character_timestamps: '1,3' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('left the books balanced with nothing held', async () => {
    await harness.settledBooks(accountId);
  });
});
