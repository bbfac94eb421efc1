import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error';
import type { GatewayRequest } from './gateway-request';

/**
 * Replaces Fastify's JSON parser with one that keeps the original bytes beside the parsed value: a
 * request the gateway does not need to rewrite is forwarded upstream byte for byte, unknown fields
 * included. Any other content type on a body-carrying route is refused with a message naming it.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimitBytes: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: bodyLimitBytes },
    (request, body: Buffer, done) => {
      (request as GatewayRequest).gateway.rawBody = body;
      if (body.length === 0) {
        done(
          GatewayError.invalidRequest('Request body is empty; a JSON object is required.', '(body)'),
          undefined,
        );
        return;
      }
      try {
        done(null, JSON.parse(body.toString('utf8')));
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unparseable';
        done(
          new GatewayError('invalid_json', `Request body is not valid JSON: ${reason}.`, { param: '(body)' }),
          undefined,
        );
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
