import { applyDecorators, createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiParam, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

/**
 * A route's body as its declaration gives it: the DTO the OpenAPI document shows, and how a body is
 * validated against it (the family's own checks and refusal shape: stored-field limits, alpha's
 * field error codes, the admin rules). Declared once, on the route (DeclaredRoute,
 * TaskSubmissionRoute, DeclaresBody).
 */
export interface BodyDeclaration<Fields> {
  dto: Type<Fields>;
  validate(dto: Type<Fields>, body: unknown): Fields;
  /** The body may be left out (documented as not required); `validate` then sees `undefined`. */
  optional?: boolean;
}

/**
 * Bodies one request parameter chooses between, one declaration per value: `/bt`'s body is a
 * submission or a result query by its `Action` query parameter, an asset action's by its path. The
 * route reads (and checks) the parameter, then takes the body under that value's declaration
 * (`ChosenBody.as`). The OpenAPI document shows the parameter's values and every body.
 */
export interface BodyChoice<Bodies extends object> {
  /** The parameter that chooses: in the query or in the path. */
  chosenBy: { query: string } | { path: string };
  /** The parameter's description in the OpenAPI document. */
  description?: string;
  /** The body's description in the OpenAPI document. */
  bodyDescription?: string;
  /** The declaration of each value the parameter takes. */
  bodies: { readonly [Value in keyof Bodies]: BodyDeclaration<Bodies[Value]> };
}

/** What a route declares of its body: one declaration, or one per value of a parameter. */
export type RouteBodyDeclaration = BodyDeclaration<unknown> | BodyChoice<object>;

const BODY_DECLARATION = 'gateway:body-declaration';

/** Records a route's body declaration on its handler, for RouteBody to read. */
export function declareBody(handler: object, declaration: RouteBodyDeclaration): void {
  Reflect.defineMetadata(BODY_DECLARATION, declaration, handler);
}

/** The body declaration of a route's handler, if it declares one. */
export function bodyDeclarationOf(handler: object): RouteBodyDeclaration | undefined {
  return Reflect.getMetadata(BODY_DECLARATION, handler) as RouteBodyDeclaration | undefined;
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

/** The client's body on a route whose body a parameter chooses (BodyChoice). */
export class ChosenBody<Bodies extends object> {
  constructor(
    readonly raw: unknown,
    private readonly choice: BodyChoice<Bodies>,
  ) {}

  /** The body under the declaration of `value`: the parameter's value, as the route read and checked it. */
  as<Value extends keyof Bodies>(value: Value): DeclaredBody<Bodies[Value]> {
    return new DeclaredBody(this.raw, this.choice.bodies[value]);
  }
}

function isBodyChoice(declaration: RouteBodyDeclaration): declaration is BodyChoice<object> {
  return 'bodies' in declaration;
}

/**
 * The handler's parameter for its declared body: `@RouteBody() body: DeclaredBody<Dto>`, or
 * `ChosenBody<Bodies>` where a parameter chooses the body.
 */
export const RouteBody = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const declaration = bodyDeclarationOf(context.getHandler());
  if (!declaration) throw new Error(`${context.getHandler().name} has no declared body.`);
  const raw = context.switchToHttp().getRequest<FastifyRequest>().body;
  return isBodyChoice(declaration) ? new ChosenBody(raw, declaration) : new DeclaredBody(raw, declaration);
});

/** A route's DeclaredBody as it is, or a body read elsewhere (a form's fields) under the same declaration. */
export function declaredBodyOf<Fields>(
  body: DeclaredBody<Fields> | unknown,
  declaration: BodyDeclaration<Fields>,
): DeclaredBody<Fields> {
  return body instanceof DeclaredBody ? (body as DeclaredBody<Fields>) : new DeclaredBody(body, declaration);
}

/** The OpenAPI body (and, for a choice, the choosing parameter) of a declaration. */
function documented(declaration: RouteBodyDeclaration): MethodDecorator {
  if (!isBodyChoice(declaration)) {
    return ApiBody({ type: declaration.dto, ...(declaration.optional ? { required: false } : {}) });
  }
  const bodies = Object.values(declaration.bodies as Record<string, BodyDeclaration<unknown>>);
  const dtos = [...new Set(bodies.map((body) => body.dto))];
  const values = Object.keys(declaration.bodies);
  const parameter = { enum: values, description: declaration.description };
  return applyDecorators(
    ApiExtraModels(...dtos),
    'query' in declaration.chosenBy
      ? ApiQuery({ name: declaration.chosenBy.query, ...parameter })
      : ApiParam({ name: declaration.chosenBy.path, ...parameter }),
    ApiBody({
      description: declaration.bodyDescription,
      // anyOf, not oneOf: the parameter tells the bodies apart, not their shape.
      schema: { anyOf: dtos.map((dto) => ({ $ref: getSchemaPath(dto) })) },
    }),
  );
}

/** Declares a route's body (documented and validated from the same declaration) beside its other decorators. */
export function DeclaresBody(declaration: RouteBodyDeclaration): MethodDecorator {
  const documentation = documented(declaration);
  return (target, key, descriptor) => {
    declareBody(descriptor.value as object, declaration);
    documentation(target, key, descriptor);
  };
}
