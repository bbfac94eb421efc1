import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '@gateway/config';
import { CONSOLE_SECURITY_HEADERS, HASHED_ASSET_CACHE, REVALIDATED_CACHE } from './console-headers.util';
import { isFile, resolveConsoleFile } from './console-file.resolve';
import { consoleUnbuiltPage } from './console-unbuilt.page';

export const CONSOLE_PATH = '/console';

/**
 * Serves the operator console's build at /console: its files as they are, every other path as
 * index.html (the single-page app's own routes), all with the console's security headers. When
 * CONSOLE_ENABLED is false (or the admin API is off) nothing is registered: /console is a 404 like any
 * unknown path. A missing build is a 503 page saying how to build it, checked per request so that a
 * build made after start-up is served without a restart.
 *
 * Called before the application is initialised, as Fastify routes: the console needs nothing of
 * Nest's, and its files are served by @fastify/send (ETag, Last-Modified, Range, HEAD).
 */
export function registerConsoleRoutes(fastify: FastifyInstance, config: ConsoleConfig): void {
  if (!config.enabled) return;
  // On every answer under /console, the router's 404 and 405 included, and before any handler runs.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isConsoleUrl(request.url)) reply.headers(CONSOLE_SECURITY_HEADERS);
    done();
  });
  void fastify.register(async (instance) => {
    // Only reply.sendFile: the routes below decide what each path serves.
    await instance.register(fastifyStatic, { root: config.directory, serve: false });
    const serve = (request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) =>
      serveConsolePath(config.directory, request.params['*'] ?? '', reply);
    instance.get(CONSOLE_PATH, serve);
    instance.get(`${CONSOLE_PATH}/*`, serve);
  });
}

async function serveConsolePath(
  directory: string,
  wildcard: string,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (!(await isFile(join(directory, 'index.html')))) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(consoleUnbuiltPage(directory));
  }
  const file = await resolveConsoleFile(directory, wildcard);
  if (file.kind === 'missing-asset') {
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send('Not found');
  }
  if (file.kind === 'app') {
    return reply.header('cache-control', REVALIDATED_CACHE).sendFile('index.html', { cacheControl: false });
  }
  return reply
    .header('cache-control', file.hashed ? HASHED_ASSET_CACHE : REVALIDATED_CACHE)
    .sendFile(file.path, { cacheControl: false });
}

function isConsoleUrl(url: string): boolean {
  return url === CONSOLE_PATH || url.startsWith(`${CONSOLE_PATH}/`) || url.startsWith(`${CONSOLE_PATH}?`);
}
