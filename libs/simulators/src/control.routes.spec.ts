import { RunningSimulator, startSimulator } from './server';
import { eventually, getUrl, parseJson, postJson, simulatorStats } from './testing/simulator-client.util';
import { JournalEntry } from './request-journal';

const KAPPA_KEY = { 'x-vendor-api-key': 'sim-kappa-key' };
const COMPAT_AUTH = { authorization: 'Bearer sim-compat-key' };
const KAPPA_REQUEST = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

describe('control routes and scripting sources', () => {
  let simulator: RunningSimulator;
  const journal = async (limit?: number): Promise<JournalEntry[]> =>
    JSON.parse((await getUrl(`${simulator.url}/__sim/requests${limit ? `?limit=${limit}` : ''}`)).text);

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  beforeEach(async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
  });
  afterAll(() => simulator.close());

  it('counts requests, completions and routes; reset zeroes them', async () => {
    await postJson(
      `${simulator.url}/v1beta/models/kappa-2.0-flash:generateContent`,
      KAPPA_REQUEST,
      KAPPA_KEY,
    );
    await postJson(
      `${simulator.url}/v1/chat/completions`,
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      COMPAT_AUTH,
    );
    await getUrl(`${simulator.url}/v1beta/models`, KAPPA_KEY);
    await eventually(async () => (await simulatorStats(simulator.url)).completed === 3);
    expect(await simulatorStats(simulator.url)).toEqual({
      requests: 3,
      completed: 3,
      aborted: 0,
      byRoute: { 'kappa:generateContent': 1, 'compat:chatCompletions': 1, 'kappa:listModels': 1 },
      videos: { createRequests: 0, created: 0, replayed: 0, cancelled: 0 },
    });
    await postJson(`${simulator.url}/__sim/reset`, {});
    expect(await simulatorStats(simulator.url)).toEqual({
      requests: 0,
      completed: 0,
      aborted: 0,
      byRoute: {},
      videos: { createRequests: 0, created: 0, replayed: 0, cancelled: 0 },
    });
    expect(await journal()).toEqual([]);
  });

  it('journals requests newest last, with credentials redacted and the authentication outcome', async () => {
    await postJson(
      `${simulator.url}/v1beta/models/kappa-2.0-flash:generateContent?key=sim-kappa-key`,
      KAPPA_REQUEST,
    );
    await postJson(
      `${simulator.url}/v1/chat/completions`,
      { model: 'm', messages: [] },
      { authorization: 'Bearer wrong' },
    );
    const entries = await journal();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      method: 'POST',
      path: '/v1beta/models/kappa-2.0-flash:generateContent',
      query: { key: '<redacted>' },
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      authenticated: true,
      body: JSON.stringify(KAPPA_REQUEST),
    });
    expect(entries[1].headers['authorization']).toBe('<redacted>');
    expect(entries[1].authenticated).toBe(false);
    expect(JSON.stringify(entries)).not.toContain('sim-kappa-key');
    expect(await journal(1)).toEqual([entries[1]]);
  });

  it('truncates journaled bodies at 64 KiB', async () => {
    const longText = 'a'.repeat(70 * 1024);
    await postJson(
      `${simulator.url}/v1beta/models/kappa-2.0-flash:generateContent`,
      { contents: [{ parts: [{ text: longText }] }] },
      KAPPA_KEY,
    );
    expect((await journal(1))[0].body).toHaveLength(64 * 1024);
  });

  it('applies directives from a /@ base-URL prefix, and journals the path without it', async () => {
    const result = await postJson(
      `${simulator.url}/@error=overload;status=500/v1beta/models/kappa-2.0-flash:generateContent`,
      KAPPA_REQUEST,
      KAPPA_KEY,
    );
    expect(result.status).toBe(500);
    expect((await journal(1))[0].path).toBe('/v1beta/models/kappa-2.0-flash:generateContent');
    const prefixed = await postJson(
      `${simulator.url}/@text=From%20prefix/v1/chat/completions`,
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      COMPAT_AUTH,
    );
    expect(parseJson(prefixed.text)).toMatchObject({ choices: [{ message: { content: 'From prefix' } }] });
  });

  it('lets the x-sim header override the prefix and the prompt marker override both', async () => {
    const url = `${simulator.url}/@text=prefix;chunks=2/v1/chat/completions`;
    const headerWins = await postJson(
      url,
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      {
        ...COMPAT_AUTH,
        'x-sim': 'text=header',
      },
    );
    expect(parseJson(headerWins.text)).toMatchObject({ choices: [{ message: { content: 'header' } }] });
    const markerWins = await postJson(
      url,
      { model: 'm', messages: [{ role: 'user', content: '[[sim text=marker]]' }] },
      { ...COMPAT_AUTH, 'x-sim': 'text=header' },
    );
    expect(parseJson(markerWins.text)).toMatchObject({ choices: [{ message: { content: 'marker' } }] });
  });

  it('counts a paced stream the client destroys as aborted', async () => {
    const controller = new AbortController();
    const response = await fetch(
      `${simulator.url}/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...KAPPA_KEY, 'x-sim': 'chunks=5;interval=300' },
        body: JSON.stringify(KAPPA_REQUEST),
        signal: controller.signal,
      },
    );
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await eventually(async () => (await simulatorStats(simulator.url)).aborted === 1);
    expect((await simulatorStats(simulator.url)).completed).toBe(0);
  });

  it('stops hanging when the client of a timeout goes away', async () => {
    const controller = new AbortController();
    const pending = fetch(`${simulator.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...COMPAT_AUTH, 'x-sim': 'error=timeout' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await eventually(async () => (await simulatorStats(simulator.url)).requests === 1);
    controller.abort();
    await pending;
    await eventually(async () => (await simulatorStats(simulator.url)).aborted === 1);
  });

  it('answers unknown paths in the envelope of their wire', async () => {
    const compat = await postJson(`${simulator.url}/v1/unknown`, {}, COMPAT_AUTH);
    expect(compat.status).toBe(404);
    expect(parseJson(compat.text)).toMatchObject({ error: { type: 'invalid_request_error' } });
    const kappa = await getUrl(`${simulator.url}/v1beta/files`);
    expect(parseJson(kappa.text)).toMatchObject({ error: { status: 'NOT_FOUND' } });
    expect((await journal(1))[0].path).toBe('/v1beta/files');
    const beta = await getUrl(`${simulator.url}/?Action=CVSync2AsyncGetResult&Version=2022-08-31`);
    expect(beta.status).toBe(404);
    expect(parseJson(beta.text)).toMatchObject({
      ResponseMetadata: { Action: 'CVSync2AsyncGetResult', Error: { Code: 'NotFound' } },
    });
  });
});
