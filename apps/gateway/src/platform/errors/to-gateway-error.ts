import { HttpException } from '@nestjs/common';
import { GatewayError } from '@gateway/errors';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

function payloadTooLarge(bodyLimitBytes: number): GatewayError {
  return new GatewayError(
    'payload_too_large',
    `Request body is larger than the limit of ${bodyLimitBytes} bytes.`,
  );
}

/** Framework errors (Fastify body parsing, Nest routing) mapped onto the gateway's own error. */
export function toGatewayError(error: unknown, bodyLimitBytes: number): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return new GatewayError('not_found', 'No route matches this method and path.');
    if (status === 405) return new GatewayError('not_found', 'This method is not allowed on this path.');
    if (status === 413) return payloadTooLarge(bodyLimitBytes);
    return new GatewayError(status >= 500 ? 'internal' : 'invalid_request', error.message);
  }
  const fastifyError = error as FastifyLikeError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(bodyLimitBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('unsupported_media_type', 'Content-Type must be application/json.', {
        param: 'Content-Type',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return GatewayError.invalidRequest('Request body is empty; a JSON object is required.', '(body)');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return GatewayError.invalidRequest('Content-Length does not match the body.', 'Content-Length');
  }
  if (fastifyError.statusCode === 413) return payloadTooLarge(bodyLimitBytes);
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    return GatewayError.invalidRequest(fastifyError.message ?? 'Invalid request.');
  }
  return new GatewayError('internal', 'Internal error.', { cause: error });
}
