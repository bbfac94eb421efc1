import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { describeProblems, findJsonBytesShapeProblem, parseJsonBytes } from '@gateway/contracts';
import { GatewayError } from '../errors/gateway-error';
import type { GatewayRequest } from './gateway-request';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on a route whose JSON body limit is its own (see JsonBodyLimit). */
    jsonBodyLimitBytes?: number;
    /**
     * Set on a route that may forward the client's body byte for byte (the text generation routes):
     * only there are the bytes kept beside the parsed value. Elsewhere they are garbage once parsed,
     * which is what keeps a 20 MB body from being held twice while it is validated and stored.
     */
    forwardsRawBody?: boolean;
  }
}

/**
 * Gives a controller route its own JSON body limit instead of JSON_BODY_LIMIT_BYTES: a family route
 * whose wire fixes one (alpha: 20 MB). Past it the body is refused with 413 before it is read.
 */
export function JsonBodyLimit(bytes: number): MethodDecorator {
  return RouteConfig({ jsonBodyLimitBytes: bytes });
}

/** Refuses bytes that are not UTF-8 instead of replacing them, so what is forwarded is what was checked. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The parsed body, or the error that refuses it: a body over the shape limits (before anything is
 * parsed: BODY_SHAPE_LIMITS), bytes that are not UTF-8, text that is not JSON.
 */
function parseJsonBody(body: Buffer): unknown {
  const shapeProblem = findJsonBytesShapeProblem(body);
  if (shapeProblem) throw GatewayError.invalidRequest(describeProblems([shapeProblem]), shapeProblem.field);
  try {
    return parseJsonBytes(body, (bytes) => UTF8.decode(bytes));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw GatewayError.invalidRequest('Request body is not valid UTF-8.', '(body)');
    }
    const reason = error instanceof Error ? error.message : 'unparseable';
    throw new GatewayError('invalid_json', `Request body is not valid JSON: ${reason}.`, { param: '(body)' });
  }
}

/**
 * Replaces Fastify's JSON parser with one that keeps the original bytes beside the parsed value on the
 * routes that forward them (`forwardsRawBody`): a request the gateway does not need to rewrite is
 * forwarded upstream byte for byte, unknown fields included. Any other content type on a
 * body-carrying route is refused with a message naming it.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimitBytes: number): void {
  // Fastify checks a route's own limit instead of the parser's; registered before the routes are.
  fastify.addHook('onRoute', (route) => {
    const routeLimit = route.config?.jsonBodyLimitBytes;
    if (routeLimit !== undefined) route.bodyLimit = routeLimit;
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: bodyLimitBytes },
    (request, body: Buffer, done) => {
      if (request.routeOptions.config.forwardsRawBody) (request as GatewayRequest).gateway.rawBody = body;
      if (body.length === 0) {
        done(
          GatewayError.invalidRequest('Request body is empty; a JSON object is required.', '(body)'),
          undefined,
        );
        return;
      }
      try {
        done(null, parseJsonBody(body));
      } catch (error) {
        done(error as GatewayError, undefined);
      }
    },
  );
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    const contentType = request.headers['content-type'] ?? '(none)';
    done(
      new GatewayError(
        'unsupported_media_type',
        `Content-Type must be application/json (got ${contentType}).`,
        {
          param: 'Content-Type',
        },
      ),
      undefined,
    );
  });
}
