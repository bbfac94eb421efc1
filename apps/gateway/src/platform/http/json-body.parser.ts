import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  describeProblems,
  findJsonBytesShapeProblem,
  parseJsonBytes,
  parseJsonBytesHolding,
  type JsonPath,
} from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { gatewayState, type GatewayRequestState } from './gateway-request';
import { MergeRouteConfig } from './route-config.decorator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on a route whose JSON body limit is its own (see JsonBody). */
    jsonBodyLimitBytes?: number;
    /**
     * Set on a route that may forward the client's body byte for byte (the text generation routes):
     * only there are the bytes kept beside the parsed value. Elsewhere they are garbage once parsed,
     * which is what keeps a 20 MB body from being held twice while it is validated and stored.
     */
    forwardsRawBody?: boolean;
    /**
     * Set on a route whose images the gateway reads through ByteStrings (the alpha routes): long
     * `data:` values of an `images` list stay the body's bytes (see parseJsonBytesHolding).
     */
    holdsImagesAsBytes?: boolean;
  }
}

/** How a controller route's JSON body is read, where it differs from the gateway's default. */
export interface JsonBodyOptions {
  /**
   * The route's own limit instead of JSON_BODY_LIMIT_BYTES: a family route whose wire fixes one
   * (alpha: 20 MB). Past it the body is refused with 413 before it is read.
   */
  limitBytes?: number;
  /**
   * Holds the body's `data:` images as its bytes (ByteStrings) rather than as strings: one copy of a
   * 20 MB image fewer while it is checked and stored. The route's code reads every value of an
   * `images` list through the request's ByteStrings.
   */
  holdsImagesAsBytes?: boolean;
}

/** JsonBodyOptions merged into the route's config (with AcceptsMultipart and the route's declaration). */
export function JsonBody(options: JsonBodyOptions): MethodDecorator {
  return MergeRouteConfig({
    ...(options.limitBytes === undefined ? {} : { jsonBodyLimitBytes: options.limitBytes }),
    ...(options.holdsImagesAsBytes ? { holdsImagesAsBytes: true } : {}),
  });
}

/** A value of a list named `images`, wherever it sits (`images[0]`, `subjects[2].images[1]`). */
function isImageListItem(path: JsonPath): boolean {
  return path.length >= 2 && path[path.length - 2] === 'images' && typeof path[path.length - 1] === 'number';
}

/** Refuses bytes that are not UTF-8 instead of replacing them, so what is forwarded is what was checked. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The parsed body, or the error that refuses it: a body over the shape limits (before anything is
 * parsed: BODY_SHAPE_LIMITS), bytes that are not UTF-8, text that is not JSON.
 */
function parseJsonBody(body: Buffer, state: GatewayRequestState, holdsImages: boolean): unknown {
  const shapeProblem = findJsonBytesShapeProblem(body);
  if (shapeProblem) throw GatewayError.invalidRequest(describeProblems([shapeProblem]), shapeProblem.field);
  const decode = (bytes: Uint8Array) => UTF8.decode(bytes);
  try {
    if (!holdsImages) return parseJsonBytes(body, decode);
    const { value, byteStrings } = parseJsonBytesHolding(body, decode, isImageListItem);
    state.byteStrings = byteStrings;
    return value;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw GatewayError.invalidRequest('Request body is not valid UTF-8.', '(body)');
    }
    const reason = error instanceof Error ? error.message : 'unparseable';
    throw new GatewayError('invalid_json', `Request body is not valid JSON: ${reason}.`, { param: '(body)' });
  }
}

/** Every POST, PUT and PATCH route of the gateway reads a body; no other method's route does. */
const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Many HTTP clients send `Content-Type: application/json` on every request: on a route that takes
 * no body (a DELETE), an empty body under that header is no body, not an empty JSON document.
 */
function takesNoBody(method: string): boolean {
  return !METHODS_WITH_BODIES.has(method);
}

/** Fastify's own test of a body-less request: no length, or zero, and no chunked body. */
function announcesNoBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

// perf-machinery: raw-body-where-forwarded (docs/performance-machinery.md)
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
      const { config } = request.routeOptions;
      const state = gatewayState(request);
      if (config.forwardsRawBody) state.rawBody = body;
      if (body.length === 0) {
        if (takesNoBody(request.method)) done(null, undefined);
        else
          done(
            GatewayError.invalidRequest('Request body is empty; a JSON object is required.', '(body)'),
            undefined,
          );
        return;
      }
      try {
        done(null, parseJsonBody(body, state, config.holdsImagesAsBytes === true));
      } catch (error) {
        done(error as GatewayError, undefined);
      }
    },
  );
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    if (takesNoBody(request.method) && announcesNoBody(request.headers)) {
      done(null, undefined);
      return;
    }
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
