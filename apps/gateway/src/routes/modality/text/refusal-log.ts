import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gatewayState } from '../../../platform/http/gateway-request';
import { SettlementRecorder } from '../../../pipeline/settlement-recorder';

/**
 * The log row of a generation request refused before the generation pipeline took it: a body refused while
 * it was read (malformed JSON, bytes that are not UTF-8, a wrong content type, over the size or shape
 * limits) or validated, an unknown native method. The generation routes check the key before reading
 * the body, so all of these know it. Only for requests whose key was verified, so unauthenticated
 * traffic cannot fill the log table. Written after the answer, batched with the settlements.
 */
@Injectable()
export class RefusalLog implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly recorder: SettlementRecorder,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      this.record(request, reply.statusCode);
      done();
    });
  }

  private record(request: FastifyRequest, httpStatus: number): void {
    const state = gatewayState(request);
    if (httpStatus < 400 || state.logRowOwned || !state.apiKey || request.method !== 'POST') return;
    const generationRoute = request.routeOptions.config?.generationRoute;
    if (!generationRoute) return;
    const { route, model } = generationRoute.describeRefused(request);
    this.recorder.logWithoutHold({
      requestId: request.id,
      keyId: state.apiKey.id,
      accountId: state.apiKey.accountId,
      model,
      route,
      httpStatus,
      endReason: 'refused',
      latencyMs: Date.now() - state.startedAt,
      inputTokens: 0,
      outputTokens: 0,
      costMicros: 0n,
      attempts: 0,
    });
  }
}
