import { applyDecorators, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { ByteStrings } from '@gateway/providers-core';
import { declareBody, type BodyDeclaration } from '../platform/http/declared-body';
import { gatewayState } from '../platform/http/gateway-request';
import { JsonBody } from '../platform/http/json-body.parser';
import { idempotencyKeyOf } from './idempotency-key.header';

/** What a task submission hands over besides its body. */
export interface TaskSubmissionContext {
  requestId: string;
  startedAt: number;
  idempotencyKey?: string;
  /** The body's images held as its bytes, on a route declared with `holdsImagesAsBytes`. */
  byteStrings?: ByteStrings;
}

/**
 * How one family submission route is documented; `bodyLimitBytes` when its wire fixes its own limit,
 * `holdsImagesAsBytes` when its code reads images through the context's ByteStrings.
 */
export interface TaskSubmissionRouteOptions<Fields> {
  summary: string;
  description: string;
  /** The body's DTO and validation, read by the handler's `@RouteBody()`. */
  body: BodyDeclaration<Fields>;
  answer: Type<unknown>;
  bodyLimitBytes?: number;
  holdsImagesAsBytes?: boolean;
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'The same key with the same request answers the first task, holding and creating nothing more.',
};

/**
 * A family's official submission route (alpha, gamma): a POST answering 200 at once with the task,
 * documented with its body, its answer and the Idempotency-Key header, in one declaration; the body
 * is validated from the same declaration (`@RouteBody()`).
 */
export function TaskSubmissionRoute<Fields>(
  path: string,
  options: TaskSubmissionRouteOptions<Fields>,
): MethodDecorator {
  const declared = applyDecorators(
    Post(path),
    HttpCode(200),
    JsonBody({ limitBytes: options.bodyLimitBytes, holdsImagesAsBytes: options.holdsImagesAsBytes }),
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiHeader(IDEMPOTENCY_HEADER),
    ApiBody({ type: options.body.dto }),
    ApiOkResponse({ type: options.answer }),
  );
  return (target, key, descriptor) => {
    declareBody(descriptor.value as object, options.body as BodyDeclaration<unknown>);
    declared(target, key, descriptor);
  };
}

/** The request's id and start, and the client's Idempotency-Key (refused here when malformed). */
export function taskSubmissionContextOf(request: FastifyRequest): TaskSubmissionContext {
  const state = gatewayState(request);
  return {
    requestId: request.id,
    startedAt: state.startedAt,
    idempotencyKey: idempotencyKeyOf(request),
    byteStrings: state.byteStrings,
  };
}

/** The gateway key ApiKeyGuard resolved for this request. */
export function callerKeyOf(request: FastifyRequest): ResolvedKey {
  return gatewayState(request).apiKey as ResolvedKey;
}
