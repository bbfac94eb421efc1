import {
  getSchemaPath,
  type ContentObject,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { routeFamilyOf, type RouteFamily } from '../errors/route-family';
import {
  AlphaErrorView,
  BetaBusinessErrorView,
  BetaMetadataErrorView,
  GammaErrorView,
  LambdaErrorView,
  NativeErrorView,
  OpenAiErrorView,
} from './error-bodies.view';

/** The error body classes, which the document must carry as schemas. */
export const ERROR_BODY_MODELS = [
  OpenAiErrorView,
  NativeErrorView,
  AlphaErrorView,
  GammaErrorView,
  LambdaErrorView,
  BetaBusinessErrorView,
  BetaMetadataErrorView,
];

const ref = (model: (typeof ERROR_BODY_MODELS)[number]): ReferenceObject => ({ $ref: getSchemaPath(model) });

/** Each family's error body, as sendGatewayError picks the renderer (http/error-reply.ts). */
const ERROR_BODY_BY_FAMILY: Readonly<Record<RouteFamily, SchemaObject | ReferenceObject>> = {
  openai: ref(OpenAiErrorView),
  admin: ref(OpenAiErrorView),
  system: ref(OpenAiErrorView),
  native: ref(NativeErrorView),
  alpha: ref(AlphaErrorView),
  gamma: ref(GammaErrorView),
  lambda: ref(LambdaErrorView),
  beta: { oneOf: [ref(BetaBusinessErrorView), ref(BetaMetadataErrorView)] },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Documents the error body of every operation from its path's route family, the same way the
 * gateway chooses the dialect at run time, so that a route added anywhere gets it without a decorator.
 * Statuses a route names itself keep their description and gain the body; every operation also
 * answers `4XX` and `5XX`.
 */
export function documentErrorResponses(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const content = { 'application/json': { schema: ERROR_BODY_BY_FAMILY[routeFamilyOf(path)] } };
    for (const method of METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (operation) addErrorResponses(operation, content);
    }
  }
}

function addErrorResponses(operation: OperationObject, content: ContentObject): void {
  const responses = operation.responses;
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400 && response !== undefined && !('$ref' in response))
      response.content ??= content;
  }
  responses['4XX'] ??= { description: 'Refused, in the route family’s error dialect.', content };
  responses['5XX'] ??= { description: 'Failed, in the route family’s error dialect.', content };
}
