import { applyDecorators, Get, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DeclaresBody, type BodyChoice, type BodyDeclaration } from './declared-body';
import { JsonBody, type JsonBodyOptions } from './json-body.parser';
import { AcceptsMultipart } from './multipart-body.parser';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'At most 255 printable characters. The same key with the same request answers the first task, ' +
    'holding and creating nothing more; with another request, 409.',
};

export interface DeclaredRouteOptions<Fields> {
  method: 'GET' | 'POST';
  path?: string;
  summary: string;
  description?: string;
  /**
   * The body, validated from here (RouteBody) and documented from the same DTO; or the bodies a
   * parameter chooses between, one declaration per value.
   */
  body?: BodyDeclaration<Fields> | BodyChoice<object>;
  answer?: Type<unknown>;
  /** How its JSON body is read, where it differs from the gateway's default. */
  json?: JsonBodyOptions;
  /** Also takes `multipart/form-data`, read by the route's own form reader. */
  multipart?: boolean;
  /** Creates a task: takes the Idempotency-Key header. */
  idempotent?: boolean;
}

/**
 * One route of an InferenceRoutes controller, declared once: its method and path, its body (the DTO
 * documented and the validation RouteBody applies), its answer and docs. Answers 200 (a POST too).
 * The controller's InferenceRoutes gives it its dialect.
 */
export function DeclaredRoute<Fields>(options: DeclaredRouteOptions<Fields>): MethodDecorator {
  const { body } = options;
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    options.method === 'GET' ? Get(options.path) : Post(options.path),
    HttpCode(200),
    ApiOperation({ summary: options.summary, description: options.description }),
  ];
  if (options.json) decorators.push(JsonBody(options.json));
  if (options.multipart) {
    decorators.push(AcceptsMultipart(), ApiConsumes('application/json', 'multipart/form-data'));
  }
  if (options.idempotent) decorators.push(ApiHeader(IDEMPOTENCY_HEADER));
  if (body) decorators.push(DeclaresBody(body));
  if (options.answer) decorators.push(ApiOkResponse({ type: options.answer }));
  return applyDecorators(...decorators);
}
