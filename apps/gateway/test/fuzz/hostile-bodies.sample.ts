import { randomInt } from 'node:crypto';
import { seededRandom } from '@gateway/testing';
import type { HostileBody } from './hostile-bodies.corpus';

/** The part of a fuzz route the selection reads: its name (as `validFor` names it) and its path. */
export interface SampledRoute {
  name: string;
  path: string;
}

/** One request of a run: a body on a route. */
export interface FuzzCase<Route extends SampledRoute> {
  body: HostileBody;
  route: Route;
}

/**
 * The share of the remaining cases (a body on a route it does not aim at) that one run sends. Every
 * body on every route is about 27,000 requests over the seven fuzz files, several of them megabytes
 * (the generated bodies: about 39 MB per route), and the files were the largest CPU cost of the whole
 * suite on the 2-core CI machine: 146 CPU-seconds for the seven in one worker, 66 with this share.
 * A fifth, with the cases below that every run sends, keeps every category on every route and every
 * body in each run; a pair outside them has a one-in-five chance in each run, so runs cover it all.
 */
const SAMPLED_SHARE = 0.2;

/**
 * The words a body's name starts with when it aims at a family of routes ("native contents.0.role as
 * a number", "a bt body with …"): a route whose name or path has the word (or its plural) is the one
 * whose own fields the body gets wrong, so that pair goes deepest into that route's validation.
 */
const AIM_WORDS = new Set([
  'admin',
  'alpha',
  'bt',
  'characters',
  'chat',
  'gamma',
  'image',
  'lambda',
  'native',
  'theta',
  'unified',
  'video',
]);

/** The seed of this run: FUZZ_SEED replays a run (the seed is in its test name), else a new one. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const fixed = env['FUZZ_SEED'];
  if (fixed === undefined || fixed === '') return randomInt(2 ** 32);
  const seed = Number(fixed);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new Error(`FUZZ_SEED must be an integer in [0, 2^32), not ${JSON.stringify(fixed)}`);
  }
  return seed;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9_]+/);
}

/** Whether `body` aims at `route`: one of its name's first two words is a family word of the route. */
export function aimsAt(body: HostileBody, route: SampledRoute): boolean {
  const routeWords = new Set(wordsOf(`${route.name} ${route.path}`));
  return wordsOf(body.name)
    .slice(0, 2)
    .some((word) => AIM_WORDS.has(word) && (routeWords.has(word) || routeWords.has(`${word}s`)));
}

/**
 * The cases one run sends, in corpus order. Always: every body on every route it is valid for (the
 * 2xx answers) and on every route it aims at. Of the other cases, a share drawn from `seed`; then, so
 * that no run leaves a gap the size of a category or a body, at least one body of every category on
 * every route, and every body on at least one route. `share` 1 sends every case.
 */
export function selectFuzzCases<Route extends SampledRoute>(
  bodies: readonly HostileBody[],
  routes: readonly Route[],
  seed: number,
  share = SAMPLED_SHARE,
): Array<FuzzCase<Route>> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const chosen = bodies.map((body) =>
    routes.map((route) => body.validFor.includes(route.name) || aimsAt(body, route) || random() < share),
  );
  const categories = [...new Set(bodies.map((body) => body.category))];
  for (const [routeIndex] of routes.entries()) {
    for (const category of categories) {
      const ofCategory = [...bodies.keys()].filter((index) => bodies[index].category === category);
      if (!ofCategory.some((index) => chosen[index][routeIndex])) chosen[pick(ofCategory)][routeIndex] = true;
    }
  }
  for (const row of chosen) {
    if (routes.length > 0 && !row.includes(true)) row[pick([...routes.keys()])] = true;
  }
  return bodies.flatMap((body, bodyIndex) =>
    routes.filter((_, routeIndex) => chosen[bodyIndex][routeIndex]).map((route) => ({ body, route })),
  );
}
