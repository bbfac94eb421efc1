import { randomBytes } from 'node:crypto';
import { APP_FILTER } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { hashApiKey, KeyResolver } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import { loadConfig } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import { ChannelCatalog } from '@gateway/routing';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import { GatewayExceptionFilter } from '../platform/http/gateway-exception.filter';
import { InfrastructureModule } from '../platform/infrastructure/infrastructure.module';
import { PRISMA } from '../platform/infrastructure/tokens';
import { AdminModule } from './admin.module';

interface Reply {
  status: number;
  text: string;
  body: Record<string, unknown> & { error?: { code?: string; param?: string; message?: string } };
}

const CHANNEL_SECRET = `sk-upstream-${randomBytes(16).toString('hex')}`;
const ROTATED_SECRET = `sk-rotated-${randomBytes(16).toString('hex')}`;
/** Secrets of forms kappa and compat refuse (they take one plain key): never echoed either. */
const COMPOSITE_SECRET = `AccessKey${randomBytes(6).toString('hex')}|SecretKey${randomBytes(12).toString('hex')}`;
const PASTED_SECRET = `sk-pasted-${randomBytes(16).toString('hex')}\n`;
const BIG_MICROS = '9007199254740993';

let database: TestDatabase;
let app: NestFastifyApplication;
let prisma: PrismaClient;
let baseUrl: string;
let adminToken: string;
/** Every response body of the run, to prove no secret ever leaves through the API. */
const responseTexts: string[] = [];
/** Every plaintext inference key the API handed out. */
const issuedKeys: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  adminToken = randomBytes(24).toString('hex');
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `admin_test_${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN: adminToken,
    MASTER_KEY: randomBytes(32).toString('hex'),
    MASTER_KEY_VERSION: '4',
    LOG_LEVEL: 'silent',
  });
  const moduleRef = await Test.createTestingModule({
    imports: [InfrastructureModule.forConfig(config), AdminModule],
    providers: [{ provide: APP_FILTER, useClass: GatewayExceptionFilter }],
  }).compile();
  app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = await app.getUrl();
  prisma = app.get<PrismaClient>(PRISMA);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = adminToken,
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  responseTexts.push(text);
  const parsed = text ? JSON.parse(text) : {};
  if (typeof parsed.key === 'string') issuedKeys.push(parsed.key);
  return { status: response.status, text, body: parsed };
}

async function createAccount(name = 'team'): Promise<string> {
  const reply = await call('POST', '/admin/accounts', { name });
  expect(reply.status).toBe(201);
  return reply.body['id'] as string;
}

function channelBody(name: string): Record<string, unknown> {
  return {
    type: 'kappa',
    name,
    baseUrl: 'http://127.0.0.1:4010/kappa',
    secret: CHANNEL_SECRET,
    models: [{ model: `${name}-model` }, { model: `${name}-pro`, upstreamModel: `${name}-pro-002` }],
    priority: 3,
  };
}

describe('admin authentication', () => {
  it('answers 401 without a token and with a wrong one', async () => {
    expect((await call('GET', '/admin/channels', undefined, null)).status).toBe(401);
    expect((await call('GET', '/admin/channels', undefined, 'not-the-admin-token')).status).toBe(401);
  });

  it('answers 403 to an inference key', async () => {
    const accountId = await createAccount();
    const created = await call('POST', '/admin/keys', { accountId, name: 'client' });
    const inferenceKey = created.body['key'] as string;
    expect(inferenceKey).toMatch(/^gk_/);
    const refused = await call('GET', '/admin/accounts/' + accountId, undefined, inferenceKey);
    expect(refused.status).toBe(403);
  });
});

describe('channels', () => {
  it('creates, lists, reads, changes and deletes a channel without ever echoing its secret', async () => {
    const catalog = app.get(ChannelCatalog);
    const created = await call('POST', '/admin/channels', channelBody('primary'));
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(id).toMatch(/^ch_[0-9a-f]{24}$/);
    expect(created.body).toMatchObject({
      type: 'kappa',
      name: 'primary',
      secretMasked: `••••${CHANNEL_SECRET.slice(-4)}`,
      models: [{ model: 'primary-model' }, { model: 'primary-pro', upstreamModel: 'primary-pro-002' }],
      priority: 3,
      weight: 1,
      status: 'enabled',
    });
    expect(created.body).not.toHaveProperty('secret');
    // The catalog reloaded on the change and decrypts what was stored under the current master key.
    expect(catalog.candidatesFor('primary-model').map((candidate) => candidate.connection)).toEqual([
      { baseUrl: 'http://127.0.0.1:4010/kappa', credentials: { apiKey: CHANNEL_SECRET }, settings: {} },
    ]);

    const listed = await call('GET', '/admin/channels');
    expect((listed.body as unknown as { id: string }[]).map((channel) => channel.id)).toContain(id);
    expect((await call('GET', `/admin/channels/${id}`)).body['name']).toBe('primary');

    const changed = await call('PATCH', `/admin/channels/${id}`, { secret: ROTATED_SECRET, weight: 5 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      weight: 5,
      priority: 3,
      secretMasked: `••••${ROTATED_SECRET.slice(-4)}`,
    });
    expect(catalog.candidatesFor('primary-model')[0]?.connection.credentials).toEqual({
      apiKey: ROTATED_SECRET,
    });

    const rows = await prisma.$queryRaw<unknown[]>`SELECT * FROM channels WHERE id = ${id}`;
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(CHANNEL_SECRET);
    expect(stored).not.toContain(ROTATED_SECRET);
    expect(rows).toEqual([expect.objectContaining({ secret_key_version: 4 })]);

    expect((await call('DELETE', `/admin/channels/${id}`)).status).toBe(204);
    expect((await call('GET', `/admin/channels/${id}`)).status).toBe(404);
    expect(catalog.candidatesFor('primary-model')).toEqual([]);
    expect((await call('PATCH', `/admin/channels/${id}`, { weight: 2 })).status).toBe(404);
  });

  it('refuses an unknown type, a taken name and unknown fields, naming the field', async () => {
    const badType = await call('POST', '/admin/channels', { ...channelBody('typed'), type: 'nonesuch' });
    expect(badType.status).toBe(400);
    expect(badType.body.error?.param).toBe('type');

    expect((await call('POST', '/admin/channels', channelBody('taken'))).status).toBe(201);
    const taken = await call('POST', '/admin/channels', channelBody('taken'));
    expect(taken.status).toBe(400);
    expect(taken.body.error?.param).toBe('name');

    const unknown = await call('POST', '/admin/channels', { ...channelBody('extra'), secretKey: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.param).toBe('secretKey');

    const badModel = await call('POST', '/admin/channels', {
      ...channelBody('models'),
      models: [{ model: '' }],
    });
    expect(badModel.body.error?.param).toBe('models[0].model');
  });

  it('sets, shows and clears a poll-rate ceiling, refusing one out of bounds', async () => {
    const created = await call('POST', '/admin/channels', { ...channelBody('paced'), pollsPerSecond: 2.5 });
    expect(created.status).toBe(201);
    expect(created.body['pollsPerSecond']).toBe(2.5);
    const id = created.body['id'] as string;
    const stored = () => prisma.channel.findUnique({ where: { id }, select: { pollsPerSecond: true } });
    expect(await stored()).toEqual({ pollsPerSecond: 2.5 });

    for (const pollsPerSecond of [0, -1, 1e9, '5', true]) {
      const refused = await call('PATCH', `/admin/channels/${id}`, { pollsPerSecond });
      expect(refused.status).toBe(400);
      expect(refused.body.error?.param).toBe('pollsPerSecond');
    }
    expect(await stored()).toEqual({ pollsPerSecond: 2.5 });

    const cleared = await call('PATCH', `/admin/channels/${id}`, { pollsPerSecond: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body['pollsPerSecond']).toBeNull();
    expect(await stored()).toEqual({ pollsPerSecond: null });
    expect((await call('GET', `/admin/channels/${id}`)).body['pollsPerSecond']).toBeNull();
  });
});

describe('channel secrets and settings checked against the channel type', () => {
  /** No part of either misfit secret, not even one half of the composite one. */
  function expectNoSecretIn(reply: Reply): void {
    const parts = [...COMPOSITE_SECRET.split('|'), PASTED_SECRET.trimEnd()];
    for (const part of parts) expect(reply.text).not.toContain(part);
  }

  it('refuses a secret of the wrong form with a 400 naming the expected form and never the secret', async () => {
    for (const secret of [COMPOSITE_SECRET, PASTED_SECRET]) {
      const reply = await call('POST', '/admin/channels', { ...channelBody('misfit'), secret });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({
        param: 'secret',
        message: 'Channel type kappa: secret must be a single API key (no spaces, line breaks or "|").',
      });
      expectNoSecretIn(reply);
    }
    expect(await prisma.channel.count({ where: { name: 'misfit' } })).toBe(0);
  });

  it('refuses settings the channel type does not take, naming the setting', async () => {
    const reply = await call('POST', '/admin/channels', {
      ...channelBody('unsettled'),
      type: 'compat',
      settings: { region: 'north' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      param: 'settings',
      message: 'Channel type compat: settings.region is not a setting of this channel type.',
    });
  });

  it('checks a change against the stored secret and settings it does not replace', async () => {
    const created = await call('POST', '/admin/channels', {
      ...channelBody('retyped'),
      type: 'beta',
      secret: COMPOSITE_SECRET,
      settings: { region: 'north' },
    });
    const id = created.body['id'] as string;

    // The stored secret is composite, which kappa refuses: changing only the type is a 400 on it.
    const retyped = await call('PATCH', `/admin/channels/${id}`, { type: 'kappa', settings: {} });
    expect(retyped.status).toBe(400);
    expect(retyped.body.error).toMatchObject({
      param: 'secret',
      message: 'Channel type kappa: secret must be a single API key (no spaces, line breaks or "|").',
    });
    expectNoSecretIn(retyped);

    // With a fitting secret the stored settings still do not fit kappa.
    const keptSettings = await call('PATCH', `/admin/channels/${id}`, {
      type: 'kappa',
      secret: CHANNEL_SECRET,
    });
    expect(keptSettings.status).toBe(400);
    expect(keptSettings.body.error?.param).toBe('settings');

    const fitting = await call('PATCH', `/admin/channels/${id}`, {
      type: 'kappa',
      secret: CHANNEL_SECRET,
      settings: {},
    });
    expect(fitting.status).toBe(200);
    expect(fitting.body).toMatchObject({ type: 'kappa', settings: {} });
    expect(app.get(ChannelCatalog).candidatesFor('retyped-model')).toHaveLength(1);

    const badRotation = await call('PATCH', `/admin/channels/${id}`, { secret: PASTED_SECRET });
    expect(badRotation.status).toBe(400);
    expect(badRotation.body.error?.param).toBe('secret');
    expectNoSecretIn(badRotation);
    const badSettings = await call('PATCH', `/admin/channels/${id}`, { settings: { region: 'south' } });
    expect(badSettings.body.error).toMatchObject({
      param: 'settings',
      message: 'Channel type kappa: settings.region is not a setting of this channel type.',
    });
    expect((await prisma.channel.findUniqueOrThrow({ where: { id } })).settings).toEqual({});
  });
});

describe('keys', () => {
  it('shows the whole key once, stores only its prefix and hash, and never shows either again', async () => {
    const accountId = await createAccount();
    const created = await call('POST', '/admin/keys', {
      accountId,
      name: 'ci',
      allowedModels: ['kappa-2.0-flash'],
    });
    expect(created.status).toBe(201);
    const plaintext = created.body['key'] as string;
    const id = created.body['id'] as string;
    expect(id).toMatch(/^key_/);
    expect(plaintext.startsWith(created.body['prefix'] as string)).toBe(true);

    const stored = await prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(stored.hash).toBe(hashApiKey(plaintext));
    expect(JSON.stringify(stored)).not.toContain(plaintext);

    const read = await call('GET', `/admin/keys/${id}`);
    const listed = await call('GET', `/admin/keys?accountId=${accountId}`);
    for (const reply of [read, listed]) {
      expect(reply.text).not.toContain(plaintext);
      expect(reply.text).not.toContain(stored.hash);
    }
    expect(read.body).not.toHaveProperty('key');
    expect(listed.body).toEqual([
      expect.objectContaining({
        id,
        accountId,
        status: 'active',
        expiresAt: null,
        allowedModels: ['kappa-2.0-flash'],
      }),
    ]);
  });

  it('disables a key at once, even after it was cached, and clears an expiry with null', async () => {
    const keyResolver = app.get(KeyResolver);
    const accountId = await createAccount();
    const created = await call('POST', '/admin/keys', {
      accountId,
      name: 'soon',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    const plaintext = created.body['key'] as string;
    const id = created.body['id'] as string;
    expect(await keyResolver.resolve(plaintext)).toMatchObject({ id });

    const disabled = await call('PATCH', `/admin/keys/${id}`, { status: 'disabled', expiresAt: null });
    expect(disabled.body).toMatchObject({ status: 'disabled', expiresAt: null });
    expect(await keyResolver.resolve(plaintext)).toEqual({ reason: 'disabled' });

    expect((await call('PATCH', `/admin/keys/${id}`, { status: 'paused' })).body.error?.param).toBe('status');
    expect((await call('DELETE', `/admin/keys/${id}`)).status).toBe(204);
    expect((await call('GET', `/admin/keys/${id}`)).status).toBe(404);
    expect(await keyResolver.resolve(plaintext)).toEqual({ reason: 'unknown' });
  });

  it('refuses a key for an account that does not exist, naming accountId', async () => {
    const reply = await call('POST', '/admin/keys', { accountId: 'acct_missing', name: 'x' });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.param).toBe('accountId');
  });
});

describe('accounts', () => {
  it('creates an account, changes its overdraft and credits it once per idempotency key', async () => {
    const created = await call('POST', '/admin/accounts', { name: 'acme', overdraftLimitMicros: '1000000' });
    expect(created.body).toMatchObject({
      name: 'acme',
      balanceMicros: '0',
      heldMicros: '0',
      availableMicros: '0',
      overdraftLimitMicros: '1000000',
    });
    const id = created.body['id'] as string;
    expect(id).toMatch(/^acct_/);

    const changed = await call('PATCH', `/admin/accounts/${id}`, { overdraftLimitMicros: BIG_MICROS });
    expect(changed.body['overdraftLimitMicros']).toBe(BIG_MICROS);

    const credit = { amountMicros: '2500000', idempotencyKey: 'payment-1', note: 'top-up' };
    const first = await call('POST', `/admin/accounts/${id}/credits`, credit);
    const replay = await call('POST', `/admin/accounts/${id}/credits`, credit);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ applied: true, account: { balanceMicros: '2500000' } });
    expect(replay.body).toMatchObject({ applied: false, account: { balanceMicros: '2500000' } });
    expect((await call('GET', `/admin/accounts/${id}`)).body['availableMicros']).toBe('2500000');

    const other = await createAccount();
    for (const [target, body] of [
      [other, credit],
      [id, { ...credit, amountMicros: '2500001' }],
      [id, { ...credit, note: 'another top-up' }],
      [id, { amountMicros: credit.amountMicros, idempotencyKey: credit.idempotencyKey }],
    ] as const) {
      const reused = await call('POST', `/admin/accounts/${target}/credits`, body);
      expect({
        status: reused.status,
        code: reused.body.error?.code,
        param: reused.body.error?.param,
      }).toEqual({
        status: 409,
        code: 'idempotency_conflict',
        param: 'idempotencyKey',
      });
    }
    expect((await call('GET', `/admin/accounts/${other}`)).body['balanceMicros']).toBe('0');
    expect((await call('GET', `/admin/accounts/${id}`)).body['balanceMicros']).toBe('2500000');
  });

  it('refuses a credit the balance cannot hold with a 409 naming amountMicros, crediting nothing', async () => {
    const id = await createAccount();
    const max = '9223372036854775807';
    expect(
      (await call('POST', `/admin/accounts/${id}/credits`, { amountMicros: max, idempotencyKey: 'max' }))
        .status,
    ).toBe(200);
    const overflow = await call('POST', `/admin/accounts/${id}/credits`, {
      amountMicros: '1',
      idempotencyKey: 'one-more',
    });
    expect({ status: overflow.status, param: overflow.body.error?.param }).toEqual({
      status: 409,
      param: 'amountMicros',
    });
    expect((await call('GET', `/admin/accounts/${id}`)).body['balanceMicros']).toBe(max);
  });

  it('refuses bad amounts naming the field, and credits to a missing account with 404', async () => {
    const id = await createAccount();
    const zero = await call('POST', `/admin/accounts/${id}/credits`, {
      amountMicros: '0',
      idempotencyKey: 'k',
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error?.param).toBe('amountMicros');
    const missing = await call('POST', '/admin/accounts/acct_missing/credits', {
      amountMicros: '1',
      idempotencyKey: 'k',
    });
    expect(missing.status).toBe(404);
    const misspelt = await call('PATCH', `/admin/accounts/${id}`, { overdraftLimit: '5' });
    expect(misspelt.body.error?.param).toBe('overdraftLimit');
  });
});

describe('prices', () => {
  it('round-trips prices exactly, beyond the safe integer range, and reloads the price book', async () => {
    const price = {
      model: 'kappa-2.0-flash',
      inputPerMillion: BIG_MICROS,
      outputPerMillion: '2500000',
      perImage: { '1K': BIG_MICROS },
      defaultMaxOutputTokens: 1024,
    };
    const put = await call('PUT', '/admin/prices', {
      prices: [price, { model: 'draw-1', perCall: '40000' }],
    });
    expect(put.status).toBe(200);
    expect(put.body['prices']).toEqual([price, { model: 'draw-1', perCall: '40000' }]);
    expect(put.text).toContain(`"inputPerMillion":"${BIG_MICROS}"`);

    const listed = await call('GET', '/admin/prices');
    expect(listed.body['prices']).toEqual([{ model: 'draw-1', perCall: '40000' }, price]);
    expect(app.get(PriceBook).priceFor('kappa-2.0-flash')?.inputPerMillion).toBe(BigInt(BIG_MICROS));

    // PUT replaces a model's whole price: a dimension left out is cleared.
    await call('PUT', '/admin/prices', {
      prices: [{ model: 'draw-1', perCall: '50000', outputPerMillion: '7' }],
    });
    await call('PUT', '/admin/prices', { prices: [{ model: 'draw-1', perCall: '60000' }] });
    const relisted = await call('GET', '/admin/prices');
    expect(relisted.body['prices']).toEqual([{ model: 'draw-1', perCall: '60000' }, price]);
  });

  it('refuses a bad price naming the field', async () => {
    const reply = await call('PUT', '/admin/prices', { prices: [{ model: 'm', inputPerMillion: '1.5' }] });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.param).toBe('prices[0].inputPerMillion');
  });
});

describe('logs and usage', () => {
  const day = (date: string) => new Date(`${date}T12:00:00.000Z`);

  beforeAll(async () => {
    const rows = [
      {
        model: 'alpha-1',
        keyId: 'key_a',
        channelId: 'ch_a',
        day: '2026-03-01',
        cost: BIG_MICROS,
        status: 200,
      },
      { model: 'alpha-1', keyId: 'key_a', channelId: 'ch_a', day: '2026-03-01', cost: '10', status: 200 },
      { model: 'alpha-1', keyId: 'key_b', channelId: 'ch_b', day: '2026-03-02', cost: '5', status: 200 },
      { model: 'beta-2', keyId: 'key_b', channelId: 'ch_b', day: '2026-03-02', cost: '1', status: 502 },
      { model: 'beta-2', keyId: 'key_b', channelId: 'ch_b', day: '2026-03-03', cost: '1', status: 200 },
      { model: 'beta-2', keyId: null, channelId: null, day: '2026-03-03', cost: '0', status: 401 },
      { model: 'beta-2', keyId: 'key_a', channelId: 'ch_a', day: '2026-03-04', cost: '2', status: 200 },
    ];
    for (const [index, row] of rows.entries()) {
      await prisma.requestLog.create({
        data: {
          requestId: `req_${index}`,
          keyId: row.keyId,
          model: row.model,
          channelId: row.channelId,
          route: '/v1/chat/completions',
          httpStatus: row.status,
          endReason: row.status === 200 ? 'completed' : 'upstream_error',
          latencyMs: 10,
          inputTokens: 100,
          outputTokens: 10,
          costMicros: BigInt(row.cost),
          createdAt: day(row.day),
        },
      });
    }
  });

  it('pages logs newest first with a cursor, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const pageSizes: number[] = [];
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await call('GET', `/admin/logs?limit=3${query}`);
      expect(page.status).toBe(200);
      const items = page.body['items'] as { requestId: string }[];
      pageSizes.push(items.length);
      seen.push(...items.map((item) => item.requestId));
      cursor = page.body['nextCursor'] as string | null;
    } while (cursor !== null);
    expect(pageSizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(['req_6', 'req_5', 'req_4', 'req_3', 'req_2', 'req_1', 'req_0']);
  });

  it('filters logs and writes money as strings', async () => {
    const page = await call('GET', '/admin/logs?keyId=key_a&model=alpha-1&from=2026-03-01&to=2026-03-02');
    const items = page.body['items'] as Record<string, unknown>[];
    expect(items.map((item) => item['requestId'])).toEqual(['req_1', 'req_0']);
    expect(items[1]).toMatchObject({ costMicros: BIG_MICROS, httpStatus: 200, channelId: 'ch_a' });
    const failed = await call('GET', '/admin/logs?status=502');
    expect((failed.body['items'] as Record<string, unknown>[]).map((item) => item['requestId'])).toEqual([
      'req_3',
    ]);
  });

  it('refuses a bad limit, cursor or filter, naming it', async () => {
    expect((await call('GET', '/admin/logs?limit=501')).body.error?.param).toBe('limit');
    expect((await call('GET', '/admin/logs?cursor=bm90LWEtY3Vyc29y')).body.error?.param).toBe('cursor');
    expect((await call('GET', '/admin/logs?from=yesterday')).body.error?.param).toBe('from');
    expect((await call('GET', '/admin/logs?modle=x')).body.error?.param).toBe('modle');
  });

  it('sums usage by model, key and day, exactly', async () => {
    // The rows are of March 2026: a window that holds them (the default is the last 24 hours).
    const march = 'from=2026-03-01T00:00:00Z&to=2026-03-05T00:00:00Z';
    const figures = { images: 0, mediaSeconds: 0 };
    const byModel = await call('GET', `/admin/usage?groupBy=model&${march}`);
    expect(byModel.body).toEqual([
      {
        group: 'alpha-1',
        model: 'alpha-1',
        requests: 3,
        errors: 0,
        inputTokens: 300,
        outputTokens: 30,
        ...figures,
        costMicros: (BigInt(BIG_MICROS) + 15n).toString(),
      },
      {
        group: 'beta-2',
        model: 'beta-2',
        requests: 4,
        errors: 2,
        inputTokens: 400,
        outputTokens: 40,
        ...figures,
        costMicros: '4',
      },
    ]);
    const byKey = await call('GET', `/admin/usage?groupBy=key&${march}`);
    expect(
      (byKey.body as unknown as { group: string; requests: number }[]).map(({ group, requests }) => [
        group,
        requests,
      ]),
    ).toEqual([
      ['(none)', 1],
      ['key_a', 3],
      ['key_b', 3],
    ]);
    const byDay = await call('GET', '/admin/usage?groupBy=day&from=2026-03-02&to=2026-03-04');
    expect(
      (byDay.body as unknown as { group: string; costMicros: string }[]).map(({ group, costMicros }) => [
        group,
        costMicros,
      ]),
    ).toEqual([
      ['2026-03-02', '6'],
      ['2026-03-03', '1'],
    ]);
    const byChannel = await call('GET', '/admin/usage?groupBy=channel&from=2026-03-04T00:00:00Z');
    expect(byChannel.body).toEqual([
      {
        group: 'ch_a',
        channelId: 'ch_a',
        requests: 1,
        errors: 0,
        inputTokens: 100,
        outputTokens: 10,
        ...figures,
        costMicros: '2',
      },
    ]);
  });

  it('refuses an unknown grouping, naming groupBy', async () => {
    const reply = await call('GET', '/admin/usage?groupBy=key_id;DROP TABLE request_logs');
    expect(reply.status).toBe(400);
    expect(reply.body.error?.param).toBe('groupBy');
  });
});

describe('text Postgres cannot store', () => {
  it('refuses NUL in a body, a nested field, a path id or a query string of any admin route with a 400 naming it', async () => {
    const accountId = await createAccount('nul-team');
    const keyId = (await call('POST', '/admin/keys', { accountId, name: 'nul-key' })).body['id'] as string;
    const channelId = (await call('POST', '/admin/channels', channelBody('nul-channel'))).body[
      'id'
    ] as string;
    const credit = { amountMicros: '1', idempotencyKey: 'nul-credit' };
    const cases: Array<[method: string, path: string, body: unknown, param: string]> = [
      ['POST', '/admin/channels', { ...channelBody('nul-new'), name: 'nul\u0000' }, 'name'],
      [
        'PATCH',
        `/admin/channels/${channelId}`,
        { models: [{ model: 'm', upstreamModel: 'u\u0000' }] },
        'models[0].upstreamModel',
      ],
      ['POST', '/admin/keys', { accountId, name: 'k', allowedModels: ['a\u0000'] }, 'allowedModels[0]'],
      ['PATCH', `/admin/keys/${keyId}`, { name: '\u0000' }, 'name'],
      ['POST', '/admin/accounts', { name: 'team\u0000' }, 'name'],
      ['PATCH', `/admin/accounts/${accountId}`, { name: 'a\u0000b' }, 'name'],
      [
        'POST',
        `/admin/accounts/${accountId}/credits`,
        { ...credit, idempotencyKey: 'k\u0000' },
        'idempotencyKey',
      ],
      ['POST', `/admin/accounts/${accountId}/credits`, { ...credit, note: 'n\u0000' }, 'note'],
      ['PUT', '/admin/prices', { prices: [{ model: 'm\u0000', perCall: '1' }] }, 'prices[0].model'],
      ['GET', '/admin/accounts/acct_%00', undefined, 'id'],
      ['POST', '/admin/accounts/%00/credits', credit, 'id'],
      ['GET', '/admin/keys/%00', undefined, 'id'],
      ['PATCH', '/admin/keys/%00', { name: 'k' }, 'id'],
      ['DELETE', '/admin/channels/%00', undefined, 'id'],
      ['GET', '/admin/keys?accountId=%00', undefined, 'accountId'],
      ['GET', '/admin/logs?model=%00', undefined, 'model'],
    ];
    const answers = [];
    for (const [method, path, body] of cases) {
      const reply = await call(method, path, body);
      answers.push({ route: `${method} ${path}`, status: reply.status, error: reply.body.error });
    }
    expect(answers).toEqual(
      cases.map(([method, path, , param]) => ({
        route: `${method} ${path}`,
        status: 400,
        error: expect.objectContaining({
          param,
          message: expect.stringContaining(`${param} must not contain NUL (U+0000)`),
        }),
      })),
    );
    const untouched = await call('GET', `/admin/accounts/${accountId}`);
    expect(untouched.body).toMatchObject({ name: 'nul-team', balanceMicros: '0' });
  });
});

describe('secrets', () => {
  it('never sent a channel secret or a key hash through any response, and each key only once', async () => {
    const keys = await prisma.apiKey.findMany({ select: { hash: true } });
    const everyResponse = responseTexts.join('\n');
    expect(everyResponse).not.toContain(CHANNEL_SECRET);
    expect(everyResponse).not.toContain(ROTATED_SECRET);
    expect(everyResponse).not.toContain(COMPOSITE_SECRET.split('|')[1]);
    expect(everyResponse).not.toContain(PASTED_SECRET.trimEnd());
    for (const { hash } of keys) expect(everyResponse).not.toContain(hash);
    expect(issuedKeys.length).toBeGreaterThan(0);
    for (const key of issuedKeys) expect(everyResponse.split(key).length - 1).toBe(1);
  });
});
