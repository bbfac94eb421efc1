import { createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

/**
 * A route's body as its declaration gives it: the DTO the OpenAPI document shows, and how a body is
 * validated against it (the family's own checks and refusal shape: stored-field limits, alpha's
 * field error codes). Declared once, on the route (DeclaredRoute, TaskSubmissionRoute).
 */
export interface BodyDeclaration<Fields> {
  dto: Type<Fields>;
  validate(dto: Type<Fields>, body: unknown): Fields;
}

const BODY_DECLARATION = 'gateway:body-declaration';

/** Records a route's body declaration on its handler, for RouteBody to read. */
export function declareBody(handler: object, declaration: BodyDeclaration<unknown>): void {
  Reflect.defineMetadata(BODY_DECLARATION, declaration, handler);
}

/**
 * The client's body and its validation by the route's declaration. Validated when the route's code
 * first asks for the fields, inside the generation pipeline: a refused body is then answered and
 * logged there like every refusal before the hold, in the order the route checks things.
 */
export class DeclaredBody<Fields> {
  private validated: Fields | undefined;

  constructor(
    /** As sent: the fields the DTO does not name (a family's extras, ignored fields to warn about). */
    readonly raw: unknown,
    private readonly declaration: BodyDeclaration<Fields>,
  ) {}

  /** The validated fields; throws the route's 400 naming the fields at fault. */
  fields(): Fields {
    this.validated ??= this.declaration.validate(this.declaration.dto, this.raw);
    return this.validated;
  }
}

/** The handler's parameter for its declared body (`@RouteBody() body: DeclaredBody<Dto>`). */
export const RouteBody = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const declaration = Reflect.getMetadata(BODY_DECLARATION, context.getHandler()) as
    BodyDeclaration<unknown> | undefined;
  if (!declaration) throw new Error(`${context.getHandler().name} has no declared body.`);
  return new DeclaredBody(context.switchToHttp().getRequest<FastifyRequest>().body, declaration);
});

/** A route's DeclaredBody as it is, or a body read elsewhere (a form's fields) under the same declaration. */
export function declaredBodyOf<Fields>(
  body: DeclaredBody<Fields> | unknown,
  declaration: BodyDeclaration<Fields>,
): DeclaredBody<Fields> {
  return body instanceof DeclaredBody ? (body as DeclaredBody<Fields>) : new DeclaredBody(body, declaration);
}

/** Declares a route's body (documented and validated from the same declaration) beside its other decorators. */
export function DeclaresBody<Fields>(declaration: BodyDeclaration<Fields>): MethodDecorator {
  const documented = ApiBody({ type: declaration.dto });
  return (target, key, descriptor) => {
    declareBody(descriptor.value as object, declaration as BodyDeclaration<unknown>);
    documented(target, key, descriptor);
  };
}
