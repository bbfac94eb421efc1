import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JournalEntry } from '@gateway/simulators';
import { HOSTILE_URLS } from '@gateway/providers-core/testing';
import { seedAlphaDemo } from './alpha-demo';
import { seedGammaDemo } from './gamma-demo';
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { seedMusicDemo } from './lambda-demo';
import { seedThetaChannel, ThetaClient } from './theta-demo';
import { newVideoAccount, seedVideoDemo } from './video-demo';

/** A loopback HTTP server that counts what reaches it. */
interface CountingServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function startCountingServer(
  answer: (path: string) => { status: number; headers: Record<string, string> },
): Promise<CountingServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const { status, headers } = answer(request.url ?? '');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Body = Record<string, unknown>;

/** A route that hands a client's URL to its upstream: how to send one, and its dialect's 400. */
interface ForwardingRoute {
  name: string;
  path: string;
  body(url: string): Body;
  refusedInDialect(answer: HttpAnswer<Body>): void;
}

const openAiRefusal =
  (param: string) =>
  (answer: HttpAnswer<Body>): void => {
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param });
  };

/**
 * One URL policy for every URL the gateway hands to an upstream (docs/urls.md): the same hostile
 * list is refused on every route that forwards a URL, each a 400 in the route's dialect, with nothing
 * held and nothing sent to the upstream. An asset URL, which the gateway follows itself, is checked at
 * every redirect hop; SSRF_ALLOW_HOSTS lets the operator's own hosts through on both paths.
 */
describe('URLs handed to upstreams: one policy on every route', () => {
  let harness: GatewayHarness;
  let account: { key: string; accountId: string };
  let groupId: string;
  /** The account's ledger entries once credited: a refusal adds none. */
  let creditEntries: number;
  const routes: ForwardingRoute[] = [
    {
      name: '/v1/videos, a compat family',
      path: '/v1/videos',
      body: (url) => ({ model: 'delta-2', prompt: 'a kite', image: url }),
      refusedInDialect: openAiRefusal('image'),
    },
    {
      name: '/v1/videos, the alpha family',
      path: '/v1/videos',
      body: (url) => ({ model: 'alphaq2-pro', prompt: 'a kite', image: url }),
      refusedInDialect: openAiRefusal('image'),
    },
    {
      name: '/v1/videos, a reference video in metadata',
      path: '/v1/videos',
      body: (url) => ({ model: 'delta-2', prompt: 'a kite', metadata: { video_url: url } }),
      refusedInDialect: openAiRefusal('metadata.video_url'),
    },
    {
      name: '/v1/video/create (unified)',
      path: '/v1/video/create',
      body: (url) => ({ model: 'delta-2', prompt: 'a kite', images: [url] }),
      refusedInDialect: openAiRefusal('images[0]'),
    },
    {
      name: '/alpha/ent/v2/img2video',
      path: '/alpha/ent/v2/img2video',
      body: (url) => ({ model: 'alphaq2-pro', prompt: 'a kite', images: [url] }),
      refusedInDialect: (answer) => {
        expect(answer.body).toMatchObject({ code: 400, reason: expect.any(String) });
        expect(answer.body.message).toContain('images[0]');
      },
    },
    {
      name: '/gamma/v1/videos/image2video',
      path: '/gamma/v1/videos/image2video',
      body: (url) => ({ model_name: 'gamma-v2-5-turbo', prompt: 'a kite', image: url }),
      refusedInDialect: (answer) => {
        expect(answer.body).toMatchObject({ code: expect.any(Number), request_id: expect.any(String) });
        expect(answer.body.code).not.toBe(0);
        expect(answer.body.message).toContain('image');
      },
    },
    {
      name: '/v1/video/generations (theta 2.0 content)',
      path: '/v1/video/generations',
      body: (url) => ({
        model: 'eta-theta-2-0-260128',
        content: [
          { type: 'text', text: 'a kite' },
          { type: 'image_url', image_url: { url }, role: 'reference_image' },
        ],
      }),
      refusedInDialect: openAiRefusal('content[1].image_url.url'),
    },
    {
      name: '/v1/theta/asset/CreateAsset',
      path: '/v1/theta/asset/CreateAsset',
      body: (url) => ({ GroupId: groupId, URL: url, Name: 'probe', AssetType: 'Image' }),
      refusedInDialect: (answer) => expect(answer.body.error).toMatchObject({ param: 'URL' }),
    },
    {
      name: '/lambda/submit/music',
      path: '/lambda/submit/music',
      body: (url) => ({ prompt: 'a song', mv: 'lambda-v4', audio_url: url }),
      refusedInDialect: (answer) => {
        expect(answer.body).toMatchObject({ code: 'invalid_request', data: null });
        expect(answer.body.message).toContain('audio_url');
      },
    },
    {
      name: '/bt CVSync2AsyncSubmitTask',
      path: '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
      body: (url) => ({ req_key: 'beta_t2i_v40', prompt: 'a kite', image_urls: [url] }),
      refusedInDialect: (answer) => {
        expect(answer.body.code).not.toBe(10000);
        expect(answer.body.message).toContain('image_urls');
      },
    },
    {
      name: '/v1/images/generations (beta reference images)',
      path: '/v1/images/generations',
      body: (url) => ({ model: 'beta-4.0', prompt: 'a kite', image: [url, 'https://images.example/b.png'] }),
      refusedInDialect: openAiRefusal('image[0]'),
    },
  ];

  const send = (path: string, body: Body, baseUrl?: string) =>
    harness.request<Body>('POST', path, {
      body,
      headers: { authorization: `Bearer ${account.key}` },
      baseUrl,
    });
  /** What the simulator received since its last reset, its own control routes aside. */
  const upstreamCalls = async (): Promise<JournalEntry[]> => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests`);
    return ((await response.json()) as JournalEntry[]).filter((entry) => !entry.path.startsWith('/__sim'));
  };
  const resetSimulator = () => fetch(`${harness.simulatorUrl}/__sim/reset`, { method: 'POST' });
  const moneyOf = async (): Promise<{ holds: number; entries: number }> => {
    const [money] = await harness.query<{ holds: number; entries: number }>(
      `select (select count(*)::int from holds where account_id = $1) as holds,
              (select count(*)::int from ledger_entries where account_id = $1) as entries`,
      [account.accountId],
    );
    return money;
  };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await seedVideoDemo(harness);
    await seedAlphaDemo(harness);
    await seedGammaDemo(harness);
    await seedThetaChannel(harness);
    await seedMusicDemo(harness);
    await harness.seedBetaChannel();
    account = await newVideoAccount(harness);
    groupId = await new ThetaClient(harness, harness.url, account.key).createGroup('probes');
    creditEntries = (await moneyOf()).entries;
  });
  afterAll(async () => {
    await harness.close();
  });

  describe.each(routes)('$name', (route) => {
    it('refuses every hostile URL with a 400 in its dialect, holding nothing and asking no upstream', async () => {
      await resetSimulator();
      for (const [name, url] of HOSTILE_URLS) {
        const answer = await send(route.path, route.body(url));
        expect({ name, url, status: answer.status }).toEqual({ name, url, status: 400 });
        route.refusedInDialect(answer);
      }
      expect(await upstreamCalls()).toEqual([]);
      expect(await moneyOf()).toEqual({ holds: 0, entries: creditEntries });
    });
  });

  describe('what the operator allows (SSRF_ALLOW_HOSTS) and where redirects lead', () => {
    let trap: CountingServer;
    let redirector: CountingServer;
    let allowing: GatewayInstance;

    beforeAll(async () => {
      trap = await startCountingServer(() => ({ status: 200, headers: { 'content-type': 'image/png' } }));
      redirector = await startCountingServer((path) => ({
        status: 302,
        headers: {
          location:
            path === '/to-simulator.png'
              ? `${harness.simulatorUrl}/files/kite.png`
              : `http://127.0.0.1:${trap.port}/second-hop.png`,
        },
      }));
      // The first hop's host and port are allowed, and the simulator; the trap's port is not.
      allowing = await harness.startInstance({
        ssrfAllowHosts: [new URL(harness.simulatorUrl).host, `127.0.0.1:${redirector.port}`],
      });
    });
    afterAll(async () => {
      await Promise.all([trap.close(), redirector.close()]);
    });

    it('refuses an asset URL whose second hop is loopback, though its first hop is allowed', async () => {
      await resetSimulator();
      const answer = await send(
        '/v1/theta/asset/CreateAsset',
        {
          GroupId: groupId,
          URL: `http://127.0.0.1:${redirector.port}/start.png`,
          Name: 'redirected',
          AssetType: 'Image',
        },
        allowing.url,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        param: 'URL',
        message: expect.stringContaining('non-public address'),
      });
      expect(redirector.hits).toEqual(['/start.png']);
      expect(trap.hits).toEqual([]);
      expect(await upstreamCalls()).toEqual([]);
    });

    it('takes an asset URL whose every hop is allowed (the control)', async () => {
      const answer = await send(
        '/v1/theta/asset/CreateAsset',
        {
          GroupId: groupId,
          URL: `http://127.0.0.1:${redirector.port}/to-simulator.png`,
          Name: 'allowed',
          AssetType: 'Image',
        },
        allowing.url,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ AssetId: expect.stringMatching(/^asset_/) });
    });

    it('forwards a video image URL on an allowed host and port, and refuses it where not allowed', async () => {
      const image = `http://127.0.0.1:${redirector.port}/frame.png`;
      const body = { model: 'delta-2', prompt: 'an allowed frame', image };
      const refused = await send('/v1/videos', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ param: 'image' });
      const accepted = await send('/v1/videos', body, allowing.url);
      expect(accepted.status).toBe(200);
    });
  });
});
