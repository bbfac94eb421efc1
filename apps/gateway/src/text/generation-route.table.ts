import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ChatCompletionRequestDto, NativeGenerateRequestDto } from '@gateway/contracts';
import { gatewayState } from '../http/gateway-request';
import { parseModelAction, toNativeIngress } from './native-ingress';
import { toOpenAiIngress } from './openai-ingress';
import type { TextIngress } from './text-ingress';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['post']>;

/** What a refused request's log row names: the route and model as the pipeline's own rows name them. */
export interface RefusedGeneration {
  route: string;
  model?: string;
}

/**
 * One text generation route, declared once: GenerationRoutes registers it on Fastify, the OpenAPI
 * document takes its operation, and RefusalLog logs its refusals. These routes are served without a
 * Nest controller (see GenerationRoutes), so this table stands where a controller's decorators would.
 */
export interface GenerationRoute {
  /** Fastify's path pattern, which is also `request.routeOptions.url`. */
  path: string;
  /** The same path as OpenAPI writes it. */
  docsPath: string;
  /** The OpenAPI operation of its POST. */
  docs: OperationObject;
  ingressOf(request: FastifyRequest): TextIngress;
  describeRefused(request: FastifyRequest): RefusedGeneration;
}

/** The request bodies of the generation routes, whose schemas the OpenAPI document must carry. */
export const GENERATION_REQUEST_MODELS = [ChatCompletionRequestDto, NativeGenerateRequestDto];

const jsonBody = (model: (typeof GENERATION_REQUEST_MODELS)[number]) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: getSchemaPath(model) } } },
});

const CHAT_ROUTE = '/v1/chat/completions';

const chatCompletions: GenerationRoute = {
  path: CHAT_ROUTE,
  docsPath: CHAT_ROUTE,
  docs: {
    tags: ['OpenAI-style'],
    summary: 'Chat completion, whole or streamed (SSE with [DONE])',
    security: [{ bearer: [] }],
    requestBody: jsonBody(ChatCompletionRequestDto),
    responses: { 200: { description: 'The completion, or its chunks as Server-Sent Events' } },
  },
  ingressOf: (request) => toOpenAiIngress(request.body, gatewayState(request).rawBody),
  describeRefused: (request) => {
    const model = (request.body as { model?: unknown } | undefined)?.model;
    return { route: CHAT_ROUTE, model: typeof model === 'string' ? model : undefined };
  },
};

const nativeGeneration: GenerationRoute = {
  path: '/v1beta/models/:modelAction',
  docsPath: '/v1beta/models/{modelAction}',
  docs: {
    tags: ['Native format'],
    summary: '{model}:generateContent or {model}:streamGenerateContent',
    description:
      'The path parameter is `{model}:generateContent` (one JSON answer) or `{model}:streamGenerateContent` ' +
      '(with alt=sse: Server-Sent Events, `data: <chunk>` + CRLF CRLF, no done sentinel; without alt: one JSON ' +
      'array written incrementally). Chunks carry cumulative usageMetadata.',
    security: [{ bearer: [] }, { 'vendor-key': [] }],
    parameters: [
      {
        name: 'modelAction',
        in: 'path',
        required: true,
        schema: { type: 'string' },
        example: 'kappa-2.0-flash:streamGenerateContent',
      },
      { name: 'alt', in: 'query', required: false, schema: { type: 'string', enum: ['sse'] } },
    ],
    requestBody: jsonBody(NativeGenerateRequestDto),
    responses: { 200: { description: 'The answer, its chunks as Server-Sent Events, or a JSON array' } },
  },
  ingressOf: (request) => {
    const { modelAction } = request.params as { modelAction: string };
    const { alt } = request.query as { alt?: string };
    return toNativeIngress(modelAction, alt, request.body, gatewayState(request).rawBody);
  },
  describeRefused: (request) => {
    try {
      const { model, action } = parseModelAction(
        (request.params as { modelAction?: string }).modelAction ?? '',
      );
      return { route: `/v1beta/models/{model}:${action}`, model };
    } catch {
      return { route: '/v1beta/models/{model}:{action}' };
    }
  },
};

export const GENERATION_ROUTES: readonly GenerationRoute[] = [chatCompletions, nativeGeneration];

const ROUTES_BY_PATH = new Map(GENERATION_ROUTES.map((route) => [route.path, route]));

/** The generation route a Fastify route pattern belongs to; undefined for every other route. */
export function generationRouteOf(routePattern: string | undefined): GenerationRoute | undefined {
  return routePattern === undefined ? undefined : ROUTES_BY_PATH.get(routePattern);
}
