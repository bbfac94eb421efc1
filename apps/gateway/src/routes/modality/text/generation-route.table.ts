import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  ChatCompletionRequestDto,
  ChatCompletionView,
  GenerateContentResponseView,
  NativeGenerateRequestDto,
  type BodyCheckContext,
} from '@gateway/contracts';
import { declareRouteRoot } from '../../../platform/errors/route-family';
import { gatewayState } from '../../../platform/http/gateway-request';
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
  /** Its error dialect and credential forms. */
  dialect: 'native' | 'openai';
  /**
   * The OpenAPI operations of its POST by OpenAPI path: more than one where the path's last segment
   * names the action (`{model}:generateContent`), which answers differently.
   */
  docs: Readonly<Record<string, OperationObject>>;
  /** The validated request; `checks` carries the operator's settings its URL fields are judged by. */
  ingressOf(request: FastifyRequest, checks: BodyCheckContext): TextIngress;
  describeRefused(request: FastifyRequest): RefusedGeneration;
}

/** The bodies of the generation routes and their answers, whose schemas the OpenAPI document must carry. */
export const GENERATION_SCHEMA_MODELS = [
  ChatCompletionRequestDto,
  NativeGenerateRequestDto,
  ChatCompletionView,
  GenerateContentResponseView,
];

const jsonBody = (model: (typeof GENERATION_SCHEMA_MODELS)[number]) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: getSchemaPath(model) } } },
});

/** A stream's events as OpenAPI 3.0 can say it: text, each `data:` line one chunk. */
const EVENT_STREAM = { 'text/event-stream': { schema: { type: 'string' } } };

const MODEL_PARAMETER = {
  name: 'model',
  in: 'path' as const,
  required: true,
  schema: { type: 'string' },
  example: 'kappa-2.0-flash',
};

const NATIVE_GENERATION_DOCS: Omit<OperationObject, 'responses'> = {
  tags: ['Native format'],
  security: [{ bearer: [] }, { 'vendor-key': [] }],
  requestBody: jsonBody(NativeGenerateRequestDto),
};

const CHAT_ROUTE = '/v1/chat/completions';

const chatCompletions: GenerationRoute = {
  path: CHAT_ROUTE,
  dialect: 'openai',
  docs: {
    [CHAT_ROUTE]: {
      operationId: 'createChatCompletion',
      tags: ['OpenAI-style'],
      summary: 'Chat completion, whole or streamed (SSE with [DONE])',
      security: [{ bearer: [] }],
      requestBody: jsonBody(ChatCompletionRequestDto),
      responses: {
        200: {
          description: 'The completion; with `stream`, its `chat.completion.chunk`s as Server-Sent Events',
          content: {
            'application/json': { schema: { $ref: getSchemaPath(ChatCompletionView) } },
            ...EVENT_STREAM,
          },
        },
      },
    },
  },
  ingressOf: (request, checks) => toOpenAiIngress(request.body, gatewayState(request).rawBody, checks),
  describeRefused: (request) => {
    const model = (request.body as { model?: unknown } | undefined)?.model;
    return { route: CHAT_ROUTE, model: typeof model === 'string' ? model : undefined };
  },
};

const nativeGeneration: GenerationRoute = {
  path: '/v1beta/models/:modelAction',
  dialect: 'native',
  docs: {
    '/v1beta/models/{model}:generateContent': {
      ...NATIVE_GENERATION_DOCS,
      operationId: 'generateContent',
      summary: 'Generate one answer',
      parameters: [MODEL_PARAMETER],
      responses: {
        200: {
          description: 'The answer',
          content: { 'application/json': { schema: { $ref: getSchemaPath(GenerateContentResponseView) } } },
        },
      },
    },
    '/v1beta/models/{model}:streamGenerateContent': {
      ...NATIVE_GENERATION_DOCS,
      operationId: 'streamGenerateContent',
      summary: 'Generate an answer as a stream of chunks',
      description:
        'With alt=sse: Server-Sent Events, `data: <chunk>` + CRLF CRLF, no done sentinel; without alt: one ' +
        'JSON array of chunks written incrementally. Chunks carry cumulative usageMetadata.',
      parameters: [
        MODEL_PARAMETER,
        { name: 'alt', in: 'query', required: false, schema: { type: 'string', enum: ['sse'] } },
      ],
      responses: {
        200: {
          description: 'The chunks',
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: getSchemaPath(GenerateContentResponseView) } },
            },
            ...EVENT_STREAM,
          },
        },
      },
    },
  },
  ingressOf: (request, checks) => {
    const { modelAction } = request.params as { modelAction: string };
    const { alt } = request.query as { alt?: string };
    return toNativeIngress(modelAction, alt, request.body, gatewayState(request).rawBody, checks);
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
for (const route of GENERATION_ROUTES) declareRouteRoot(route.path, route.dialect);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The generation route's declaration, on the routes GenerationRoutes registers (RefusalLog reads it). */
    generationRoute?: GenerationRoute;
  }
}
