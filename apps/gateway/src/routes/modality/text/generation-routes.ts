import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForwardedUrls } from '../../../pipeline/forwarded-urls';
import { GatewayExceptionFilter } from '../../../platform/http/gateway-exception.filter';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { GENERATION_ROUTES, type GenerationRoute } from './generation-route.table';
import { TextGenerationService } from './text-generation.service';

// perf-machinery: generation-routes (docs/performance-machinery.md)
/**
 * The generation routes of generation-route.table.ts, served by Fastify without a Nest controller:
 * they are the hot path, and Nest's per-request execution context (router proxy, guard host,
 * parameter pipes, interceptor chain) cost 5–9 µs of CPU per request (docs/performance-analysis.md).
 * They keep the controllers' key check and error envelopes.
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
    private readonly pipeline: GenerationPipeline,
    private readonly text: TextGenerationService,
    private readonly failures: GatewayExceptionFilter,
    private readonly forwardedUrls: ForwardedUrls,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const route of GENERATION_ROUTES) {
      const config = { forwardsRawBody: true, dialect: route.dialect, apiKey: true, generationRoute: route };
      fastify.post(route.path, { config }, (request, reply) => this.serve(request, reply, route));
    }
  }

  private async serve(
    request: FastifyRequest,
    reply: FastifyReply,
    route: GenerationRoute,
  ): Promise<FastifyReply> {
    try {
      const ingress = route.ingressOf(request, this.forwardedUrls.bodyChecks);
      await this.pipeline.serve(this.text, ingress, request, reply);
    } catch (exception) {
      this.failures.sendFailure(exception, request, reply);
    }
    return reply;
  }
}
