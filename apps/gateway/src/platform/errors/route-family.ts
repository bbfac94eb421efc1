import type { FastifyRequest } from 'fastify';

/** Route families decide the error dialect and which credential forms are accepted. */
export type RouteFamily = 'native' | 'openai' | 'beta' | 'alpha' | 'gamma' | 'lambda' | 'admin' | 'system';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's error dialect, from its declaration (InferenceRoutes, the text route table). */
    dialect?: RouteFamily;
    /** Set on a route an API key calls: the key is checked as soon as the request's headers arrive. */
    apiKey?: boolean;
  }
}

interface DeclaredRoot {
  dialect: RouteFamily;
  apiKey: boolean;
}

/**
 * The first path segment of every declared route (`v1`, `v1beta`, `bt`, `alpha` …) and its routes'
 * dialect, filled by the declarations themselves as their modules load: a path no route matches (a
 * 404, a misspelt route) is answered in the dialect of the routes beside it, and the OpenAPI document
 * gives each path its family's error body, without a list of prefixes kept by hand.
 */
const declaredRoots = new Map<string, DeclaredRoot>();

/** Records a declared route's root; two declarations under one root must agree on its dialect. */
export function declareRouteRoot(path: string, dialect: RouteFamily): void {
  const root = rootOf(path);
  const earlier = declaredRoots.get(root);
  if (earlier && earlier.dialect !== dialect) {
    throw new Error(`Routes under /${root} are declared both ${earlier.dialect} and ${dialect}.`);
  }
  declaredRoots.set(root, { dialect, apiKey: true });
}

/**
 * The dialect of a request: that of the routes declared under its root (one per root, so it is its
 * route's own), else its route's declaration (a path sent encoded), else `system`. The root is read
 * first because it is a few string operations, where Fastify builds `routeOptions` anew on each read;
 * the key check asks on every request. A path alone (the OpenAPI document's) gets its root's dialect.
 */
export function routeFamilyOf(target: FastifyRequest | string): RouteFamily {
  if (typeof target === 'string') return routeFamilyOfPath(target);
  const declared = declaredRoots.get(rootOf(target.url));
  if (declared) return declared.dialect;
  const { config, url } = target.routeOptions;
  return config?.dialect ?? routeFamilyOfPath(url ?? target.url);
}

/** The dialect of the routes declared under a path's root; `system` (OpenAI-style errors) elsewhere. */
export function routeFamilyOfPath(path: string): RouteFamily {
  return declaredRoots.get(rootOf(path))?.dialect ?? 'system';
}

/** Whether the routes under a path's root are called with an API key. */
export function isApiKeyPath(path: string): boolean {
  return declaredRoots.get(rootOf(path))?.apiKey === true;
}

const SLASH = 47;
const QUESTION_MARK = 63;
const HASH = 35;

/** `/v1beta/models/x:generateContent?alt=sse` → `v1beta`; `/bt?Action=…` → `bt`. */
function rootOf(path: string): string {
  const start = path.charCodeAt(0) === SLASH ? 1 : 0;
  let end = start;
  while (end < path.length) {
    const code = path.charCodeAt(end);
    if (code === SLASH || code === QUESTION_MARK || code === HASH) break;
    end += 1;
  }
  return path.slice(start, end);
}
