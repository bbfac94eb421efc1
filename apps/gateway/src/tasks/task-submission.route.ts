import { applyDecorators, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { gatewayState } from '../http/gateway-request';
import { JsonBodyLimit } from '../http/json-body.parser';
import { idempotencyKeyOf } from './idempotency-key.header';

/** What a task submission hands over besides its body. */
export interface TaskSubmissionContext {
  requestId: string;
  startedAt: number;
  idempotencyKey?: string;
}

/** How one family submission route is documented; `bodyLimitBytes` when its wire fixes its own limit. */
export interface TaskSubmissionRouteOptions {
  summary: string;
  description: string;
  body: Type<unknown>;
  answer: Type<unknown>;
  bodyLimitBytes?: number;
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'The same key with the same request answers the first task, holding and creating nothing more.',
};

/**
 * A family's official submission route (alpha, gamma): a POST answering 200 at once with the task,
 * documented with its body, its answer and the Idempotency-Key header, in one declaration.
 */
export function TaskSubmissionRoute(path: string, options: TaskSubmissionRouteOptions): MethodDecorator {
  return applyDecorators(
    Post(path),
    HttpCode(200),
    ...(options.bodyLimitBytes === undefined ? [] : [JsonBodyLimit(options.bodyLimitBytes)]),
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiHeader(IDEMPOTENCY_HEADER),
    ApiBody({ type: options.body }),
    ApiOkResponse({ type: options.answer }),
  );
}

/** The request's id and start, and the client's Idempotency-Key (refused here when malformed). */
export function taskSubmissionContextOf(request: FastifyRequest): TaskSubmissionContext {
  return {
    requestId: request.id,
    startedAt: gatewayState(request).startedAt,
    idempotencyKey: idempotencyKeyOf(request),
  };
}

/** The gateway key ApiKeyGuard resolved for this request. */
export function callerKeyOf(request: FastifyRequest): ResolvedKey {
  return gatewayState(request).apiKey as ResolvedKey;
}
