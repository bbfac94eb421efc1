import { loadHostileBodies } from './hostile-bodies.corpus';
import { aimsAt, fuzzSeed, selectFuzzCases, type SampledRoute } from './hostile-bodies.sample';

/** Routes of the fuzz files, by name and path (ids as the admin routes' look). */
const ROUTES: SampledRoute[] = [
  { name: 'chat', path: '/v1/chat/completions' },
  { name: 'native generate', path: '/v1beta/models/kappa-2.0-flash:generateContent' },
  { name: 'native stream', path: '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse' },
  { name: 'image generations', path: '/v1/images/generations' },
  { name: 'image edits', path: '/v1/images/edits' },
  { name: 'bt submit', path: '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31' },
  { name: 'bt get result', path: '/bt?Action=CVSync2AsyncGetResult&Version=2022-08-31' },
  { name: 'videos create', path: '/v1/videos' },
  { name: 'delta characters', path: '/delta/v1/characters' },
  { name: '/v1/theta/asset/GetAsset', path: '/v1/theta/asset/GetAsset' },
  { name: 'alpha text2video', path: '/alpha/ent/v2/text2video' },
  { name: 'gamma omni-video', path: '/gamma/v1/videos/omni-video' },
  { name: 'lambda fetch', path: '/lambda/fetch' },
  { name: 'admin PATCH key', path: '/admin/keys/key_0123456789abcdef' },
  { name: 'admin create account', path: '/admin/accounts' },
  { name: 'console cancel task', path: '/admin/tasks/vid_unknown/cancel' },
];

const bodies = loadHostileBodies(1024);
const indexOf = new Map(bodies.map((body, index) => [body, index]));
const key = (bodyIndex: number, routeName: string) => `${bodyIndex} ${routeName}`;

function chosenPairs(seed: number, share?: number): Set<string> {
  return new Set(
    selectFuzzCases(bodies, ROUTES, seed, share).map(({ body, route }) =>
      key(indexOf.get(body) ?? -1, route.name),
    ),
  );
}

describe('the fuzz cases of one run', () => {
  const seeds = [0, 1, 7, 2 ** 31, 2 ** 32 - 1];

  it.each(seeds)(
    'seed %d: every valid pair, every aimed pair, every category on every route, every body',
    (seed) => {
      const pairs = chosenPairs(seed);
      for (const [index, body] of bodies.entries()) {
        const routesOfBody = ROUTES.filter((route) => pairs.has(key(index, route.name)));
        expect(routesOfBody.length).toBeGreaterThan(0);
        for (const route of ROUTES) {
          if (body.validFor.includes(route.name) || aimsAt(body, route)) {
            expect(pairs.has(key(index, route.name))).toBe(true);
          }
        }
      }
      for (const route of ROUTES) {
        const categories = new Set(
          bodies.filter((_, index) => pairs.has(key(index, route.name))).map((body) => body.category),
        );
        expect(categories).toEqual(new Set(bodies.map((body) => body.category)));
      }
    },
  );

  it('is the same selection for the same seed, and another for another seed', () => {
    expect(chosenPairs(42)).toEqual(chosenPairs(42));
    expect(chosenPairs(42)).not.toEqual(chosenPairs(43));
  });

  it('sends a share of the matrix, and all of it with share 1', () => {
    const all = bodies.length * ROUTES.length;
    expect(chosenPairs(5).size).toBeLessThan(all / 2);
    expect(chosenPairs(5, 1).size).toBe(all);
  });

  it('aims a body at the routes its name starts with', () => {
    const named = (name: string) => ({ ...bodies[0], name });
    const route = (name: string, path: string) => ({ name, path });
    expect(aimsAt(named('native contents.0.role as a number'), route('native stream', '/v1beta/x'))).toBe(
      true,
    );
    expect(aimsAt(named('a video body with an unknown field'), route('videos create', '/v1/videos'))).toBe(
      true,
    );
    expect(aimsAt(named('bt image_urls of 10,000 items'), route('chat', '/v1/chat/completions'))).toBe(false);
    expect(aimsAt(named('a body of null'), route('admin PATCH key', '/admin/keys/k'))).toBe(false);
  });

  it('takes the seed from FUZZ_SEED, and refuses one that is not a 32-bit integer', () => {
    expect(fuzzSeed({ FUZZ_SEED: '12345' })).toBe(12345);
    expect(() => fuzzSeed({ FUZZ_SEED: 'x' })).toThrow(/FUZZ_SEED/);
    expect(() => fuzzSeed({ FUZZ_SEED: String(2 ** 32) })).toThrow(/FUZZ_SEED/);
    const fresh = fuzzSeed({});
    expect(Number.isInteger(fresh) && fresh >= 0 && fresh < 2 ** 32).toBe(true);
  });
});
