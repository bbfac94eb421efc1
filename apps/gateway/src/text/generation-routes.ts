import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayState } from '../http/gateway-request';
import { GatewayExceptionFilter } from '../http/gateway-exception.filter';
import { toNativeIngress } from './native-ingress';
import { toOpenAiIngress } from './openai-ingress';
import type { TextIngress } from './text-ingress';
import { TextGenerationService } from './text-generation.service';

type IngressOf = (request: FastifyRequest) => TextIngress;

const openAiIngressOf: IngressOf = (request) => toOpenAiIngress(request.body, gatewayState(request).rawBody);

const nativeIngressOf: IngressOf = (request) => {
  const { modelAction } = request.params as { modelAction: string };
  const { alt } = request.query as { alt?: string };
  return toNativeIngress(modelAction, alt, request.body, gatewayState(request).rawBody);
};

/**
 * The two generation routes, served by Fastify without a Nest controller: they are the hot path, and
 * Nest's per-request execution context (router proxy, guard host, parameter pipes, interceptor chain)
 * cost 5–9 µs of CPU per request (docs/performance-analysis.md). They keep the controllers' key check
 * and error envelopes; their OpenAPI operations are in ../docs/generation-route.docs.ts.
 *
 * Their key is checked when the request arrives, before its body is read, by the gateway-wide
 * early-authentication hook (../auth/early-authentication.hook.ts): a body refused while it is parsed
 * (malformed JSON, wrong content type, over the size or shape limits) then has a verified key for its
 * log row (RefusalLog), and a request without a valid key is answered without reading its body.
 */
@Injectable()
export class GenerationRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly text: TextGenerationService,
    private readonly failures: GatewayExceptionFilter,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.post('/v1/chat/completions', (request, reply) => this.serve(request, reply, openAiIngressOf));
    fastify.post('/v1beta/models/:modelAction', (request, reply) =>
      this.serve(request, reply, nativeIngressOf),
    );
  }

  private async serve(
    request: FastifyRequest,
    reply: FastifyReply,
    ingressOf: IngressOf,
  ): Promise<FastifyReply> {
    try {
      await this.text.handle(ingressOf(request), request, reply);
    } catch (exception) {
      this.failures.sendFailure(exception, request, reply);
    }
    return reply;
  }
}
