import type { FastifyInstance } from 'fastify';
import { GatewayError } from '@gateway/errors';
import { MergeRouteConfig } from './route-config.decorator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on a route that reads a multipart body itself (see readMultipartForm). */
    acceptsMultipart?: boolean;
  }
}

/** Marks a controller route as taking `multipart/form-data`; every other route refuses it. */
export function AcceptsMultipart(): MethodDecorator {
  return MergeRouteConfig({ acceptsMultipart: true });
}

/**
 * Lets `multipart/form-data` through to the routes marked with AcceptsMultipart, unread: their
 * handler streams the body through the form reader, file by file. Any other route refuses it as it
 * refuses every type but JSON.
 *
 * Why not @fastify/multipart's own parser: the plugin adds an async onRequest and an async onResponse
 * hook to every route of the instance it is registered on, which the text hot path would pay on every
 * request, and a Nest controller route cannot live in an encapsulated Fastify context of its own. So
 * the form is read with @fastify/busboy, the parser @fastify/multipart is built on.
 */
export function registerMultipartBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    if (request.routeOptions.config?.acceptsMultipart === true) done(null, undefined);
    else done(refusedMultipart(), undefined);
  });
}

function refusedMultipart(): GatewayError {
  return new GatewayError(
    'unsupported_media_type',
    'Content-Type must be application/json (got multipart/form-data).',
    { param: 'Content-Type' },
  );
}
