import { GatewayHarness, type TextDemo } from '../gateway-harness';
import { imageHarnessEnv, seedImageDemo } from '../image-demo';
import { type HostileBody, loadHostileBodies } from './hostile-bodies.corpus';
import { fuzzSeed, selectFuzzCases } from './hostile-bodies.sample';

/** A route that takes a JSON body, and the credential it is called with. */
export interface FuzzRoute {
  name: string;
  method: 'POST' | 'PATCH' | 'PUT';
  path: string;
  headers: Record<string, string>;
}

/** What a route group builds its routes from: the demo's key and objects of the admin API's own. */
export interface FuzzContext {
  harness: GatewayHarness;
  demo: TextDemo;
  /** An account, a key of it and a channel that the admin routes taking an id may change. */
  adminTargets: { accountId: string; keyId: string; channelId: string };
  /** Headers carrying the demo's key as a Bearer token. */
  bearer: Record<string, string>;
  /** Headers carrying the admin token. */
  admin: Record<string, string>;
}

/** How many requests are in flight at once: enough to overlap them, few enough for a shared machine. */
const CONCURRENCY = 6;
/**
 * The largest answer header a client can count on reading: many proxies and clients stop at 8 KB
 * (Node's own limit is 16 KB, past which fetch fails). A header echoing a client's field name must
 * stay under it.
 */
const MAX_HEADER_BYTES = 8 * 1024;

/**
 * The corpus against one group of routes, on a gateway of the group's own. The corpus is split by
 * route group over several spec files so that Jest runs the groups side by side and no single test
 * grows past its time limit as routes are added.
 *
 * A run sends the cases selectFuzzCases picks from the run's seed (hostile-bodies.sample.ts): every
 * body valid on a route or aimed at it there, every category on every route, every body somewhere,
 * and a seeded share of the rest, so that runs with their different seeds cover the whole matrix. The
 * seed is in the test's name and printed; FUZZ_SEED=<seed> sends the same cases again, FUZZ_ALL=1
 * every body on every route.
 */
export function describeHostileBodies(
  group: string,
  routesOf: (context: FuzzContext) => Promise<FuzzRoute[]>,
) {
  const seed = fuzzSeed();
  describe(`hostile bodies (fuzz corpus) against the ${group}`, () => {
    let harness: GatewayHarness;
    let demo: TextDemo;
    let routes: FuzzRoute[];
    let bodies: HostileBody[];
    /** The key of the account bodies that `spend` are charged to, never the demo's. */
    let spenderKey: string;

    beforeAll(async () => {
      harness = await GatewayHarness.start(imageHarnessEnv());
      demo = await harness.seedTextDemo();
      // Image prices and channels as the image and /bt specs seed them; every call uses the text
      // demo's key, so the one account whose balance is checked below is the one every route would charge.
      await seedImageDemo(harness);
      await harness.seedBetaChannel();
      // The admin routes that take an id change objects of their own, never the demo's account.
      const accountId = await harness.createAccount(0n);
      const { id: keyId } = await harness.createKey(accountId);
      const channelId = await harness.createChannel({
        type: 'compat',
        name: 'fuzz-target',
        secret: 'sim-compat-key',
        models: [{ model: 'fuzz-only' }],
      });
      spenderKey = (await harness.createKey(await harness.createAccount(1_000_000_000n))).key;
      routes = await routesOf({
        harness,
        demo,
        adminTargets: { accountId, keyId, channelId },
        bearer: { authorization: `Bearer ${demo.key}` },
        admin: { authorization: `Bearer ${harness.adminToken}` },
      });
      bodies = loadHostileBodies(harness.config.jsonBodyLimitBytes);
    });
    afterAll(() => harness.close());

    /** What is wrong with the answer to `body` on `route`, or undefined when it is right. */
    async function faultOf(route: FuzzRoute, body: HostileBody): Promise<string | undefined> {
      const credentials = body.spends
        ? Object.fromEntries(
            Object.entries(route.headers).map(([name, value]) => [name, value.replace(demo.key, spenderKey)]),
          )
        : route.headers;
      const headers = {
        ...credentials,
        ...(body.contentType === null ? {} : { 'content-type': body.contentType }),
      };
      let answer;
      try {
        answer = await harness.request(route.method, route.path, { rawBody: body.bytes, headers });
      } catch (error) {
        return `no answer (${String((error as Error).cause ?? error)})`;
      }
      const { status } = answer;
      const expected = body.validFor.includes(route.name) ? status < 300 : status >= 400 && status < 500;
      // A 5xx's body says which dependency failed (a Redis or Postgres timeout under load is not a parse bug).
      if (!expected) return status >= 500 ? `${status} ${answer.text.slice(0, 300)}` : String(status);
      const long = [...answer.headers].find(([name, value]) => name.length + value.length > MAX_HEADER_BYTES);
      return long && `${status} with a header ${long[0]} of ${long[1].length} bytes`;
    }

    it(`answers each body on each route of the run (FUZZ_SEED=${seed}) with a 4xx (a 2xx only where the body is valid), never a 5xx nor a header over 8 KB`, async () => {
      const cases = selectFuzzCases(bodies, routes, seed, process.env['FUZZ_ALL'] === '1' ? 1 : undefined);
      process.stdout.write(
        `hostile bodies against the ${group}: ${cases.length} of ${bodies.length * routes.length} cases, FUZZ_SEED=${seed}\n`,
      );
      const wrong: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const { body, route } = cases[next++];
          const fault = await faultOf(route, body);
          if (fault !== undefined) wrong.push(`${route.name} ← ${body.category}: ${body.name} → ${fault}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(wrong).toEqual([]);
      // Every body on a group of routes, some of them megabytes: bounded work that a loaded 2-core
      // machine stretches several times over, so a longer limit than the suite's default.
    }, 180_000);

    it('charged nothing: the balance is untouched, nothing is held, the ledger has no capture', async () => {
      await harness.settled();
      const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
        'GET',
        `/admin/accounts/${demo.accountId}`,
      );
      expect(account).toMatchObject({ balanceMicros: '1000000000', heldMicros: '0' });
      const captures = await harness.query<{ n: number }>(
        "select count(*)::int as n from ledger_entries where kind = 'capture' and account_id = $1",
        [demo.accountId],
      );
      expect(captures[0].n).toBe(0);
    });

    it('still serves an ordinary request afterwards', async () => {
      const answer = await harness.request<{ choices: unknown[] }>('POST', '/v1/chat/completions', {
        body: { model: 'chat-fast', messages: [{ role: 'user', content: 'Hello' }] },
        headers: { authorization: `Bearer ${demo.key}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.choices).toHaveLength(1);
    });
  });
}
