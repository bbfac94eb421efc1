import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { HoldLeases, PriceBook, textCostMicros, type LeasedHold } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import {
  RequestCancellation,
  UpstreamError,
  type CancellationSignal,
  type TextStream,
  type TextStreamRead,
  type TokenUsage,
} from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { REQUEST_ID_HEADER } from '@gateway/observability';
import { errorBodyFor } from '../errors/error-envelope.renderer';
import { GatewayError } from '../errors/gateway-error';
import { routeFamilyOf } from '../errors/route-family';
import { AdapterContexts } from '../generation/adapter-contexts';
import { AttemptMetrics } from '../generation/attempt-metrics';
import { toClientError, withChannelFailover } from '../generation/channel-failover';
import { answerFailure } from '../generation/failure-answer';
import { HoldRefusals } from '../generation/hold-refusal';
import { endedByShutdown, InFlightGenerations, SHUTDOWN_MESSAGE } from '../generation/in-flight-generations';
import { refusalLogOf, settlementLogOf, type GenerationOutcome } from '../generation/request-log-fields';
import { SettlementRecorder } from '../generation/settlement-recorder';
import { warningHeader } from '../generation/warning-header';
import { createCoalescingWriter } from '../http/coalescing-writer';
import { gatewayState } from '../http/gateway-request';
import { CONFIG, LOGGER } from '../infrastructure/tokens';
import { textCharsInChunk, toBillableUsage, usageForEndedStream } from './partial-usage.util';
import { relayRead, type ReadRelay } from './read-relay';
import { createStreamFramer } from './stream-framing';
import { admitTextRequest, type AdmittedCandidate, type TextAdmission } from './text-admission';
import type { TextIngress } from './text-ingress';

const HOLD_REFUSALS = new HoldRefusals('Add credit or lower maxOutputTokens / max_tokens.');

/** The outcome of one request, for its settlement and its log row. */
interface RequestOutcome extends GenerationOutcome {
  usage?: TokenUsage;
}

interface OpenedStream {
  admitted: AdmittedCandidate;
  upstream: TextStream;
  iterator: AsyncIterator<TextStreamRead>;
  first: IteratorResult<TextStreamRead>;
}

/**
 * One text request through the generation pipeline (../generation): admission → hold → channel
 * attempts with failover → answer (whole, or streamed chunk by chunk without buffering) → exactly one
 * settlement after the answer. What is textual stays here: dialect bridging and the stream relay.
 */
@Injectable()
export class TextGenerationService {
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
    private readonly prices: PriceBook,
    private readonly holds: HoldLeases,
    private readonly recorder: SettlementRecorder,
    private readonly inFlight: InFlightGenerations,
    private readonly contexts: AdapterContexts,
    private readonly attemptMetrics: AttemptMetrics,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(ingress: TextIngress, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const state = gatewayState(request);
    state.logRowOwned = true;
    const key = state.apiKey as ResolvedKey;
    const identity = {
      responseId: `chatcmpl-${request.id}`,
      createdSeconds: Math.floor(state.startedAt / 1000),
    };
    let admission: TextAdmission;
    let lease: LeasedHold | undefined;
    try {
      admission = admitTextRequest(
        ingress,
        key,
        this.catalog.candidatesFor(ingress.model),
        this.prices.priceFor(ingress.model),
        identity,
      );
      const taking = this.holds.take({
        requestId: request.id,
        accountId: key.accountId,
        keyId: key.id,
        model: ingress.model,
        route: ingress.route,
        amount: admission.holdMicros,
        ttlMs: this.config.holdTtlMs,
      });
      ({ lease } = await taking.then(HOLD_REFUSALS.accept, (error: unknown) => {
        this.logger.error({ err: error, requestId: request.id }, 'hold failed');
        throw HOLD_REFUSALS.unavailable();
      }));
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(request.id, key, ingress.model, ingress.route, state.startedAt, error),
      );
      throw error;
    }

    const cancellation = new RequestCancellation();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
    });
    await this.inFlight.run(cancellation, async () => {
      const outcome = ingress.framing
        ? await this.streamAnswer(ingress, admission, request, reply, cancellation)
        : await this.wholeAnswer(admission, request, reply, cancellation);
      this.settle(ingress, request, key, admission, outcome, lease);
    });
  }

  private async wholeAnswer(
    admission: TextAdmission,
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<RequestOutcome> {
    try {
      const { value, candidate, attempts, durationMs } = await this.withFailover(
        admission,
        async (admitted) => ({
          admitted,
          response: await admitted.adapter.generate(
            admitted.bridge.toCall(admitted.candidate.upstreamModel),
            this.contexts.for(admitted.candidate, signal),
          ),
        }),
      );
      const body = value.admitted.bridge.toClientBody(value.response);
      reply
        .code(200)
        .headers(warningHeader(value.admitted.bridge.warnings))
        .header('content-type', 'application/json; charset=utf-8')
        .send(body);
      this.attemptMetrics.observe(candidate, durationMs);
      return {
        httpStatus: 200,
        endReason: value.response.promptBlockReason ? 'prompt_blocked' : 'completed',
        usage: value.response.usage,
        channelId: candidate.id,
        attempts: attempts.length,
      };
    } catch (error) {
      return answerFailure(error, request, reply, signal, this.logger);
    }
  }

  private async streamAnswer(
    ingress: TextIngress,
    admission: TextAdmission,
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<RequestOutcome> {
    let opened: OpenedStream;
    let attempts: number;
    let attemptMs: number;
    try {
      // The attempt only succeeds once the first read is in hand: until a byte reaches the client,
      // a failing channel can still be replaced by the next one.
      const result = await this.withFailover(admission, async (admitted): Promise<OpenedStream> => {
        const upstream = await admitted.adapter.stream(
          admitted.bridge.toCall(admitted.candidate.upstreamModel),
          this.contexts.for(admitted.candidate, signal),
        );
        const iterator = upstream[Symbol.asyncIterator]();
        try {
          return { admitted, upstream, iterator, first: await iterator.next() };
        } catch (error) {
          upstream.abort();
          throw error;
        }
      });
      opened = result.value;
      attempts = result.attempts.length;
      attemptMs = result.durationMs;
    } catch (error) {
      return answerFailure(error, request, reply, signal, this.logger);
    }
    try {
      return await this.relayStream(ingress, opened, attempts, request, reply, signal);
    } finally {
      // Recorded once the stream is out: before its first write, it would delay the first byte.
      this.attemptMetrics.observe(opened.admitted.candidate, attemptMs);
    }
  }

  /** Writes the stream to the client read by read; backpressure from the client slows the upstream read. */
  private async relayStream(
    ingress: TextIngress,
    opened: OpenedStream,
    attempts: number,
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<RequestOutcome> {
    const { admitted, upstream, iterator } = opened;
    const framer = createStreamFramer(ingress.framing ?? 'openai-sse');
    const raw = reply.raw;
    const startedAt = gatewayState(request).startedAt;
    const onAbort = () => upstream.abort();
    signal.addEventListener('abort', onAbort, { once: true });

    reply.hijack();
    raw.writeHead(200, {
      'content-type': framer.contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: request.id,
      ...warningHeader(admitted.bridge.warnings),
    });
    const ttfbMs = Date.now() - startedAt;
    let lastUsage: TokenUsage | undefined;
    let deliveredChars = 0;
    const write = createCoalescingWriter(raw);
    const relay: ReadRelay = {
      converter: admitted.bridge.createStreamConverter(),
      framer,
      write,
      onEvent: (event) => {
        if (event.usage) lastUsage = event.usage;
        deliveredChars += textCharsInChunk(event.chunk, admitted.adapter.dialect);
      },
    };
    const outcome = (endReason: string, usage: TokenUsage | undefined): RequestOutcome => ({
      httpStatus: 200,
      endReason,
      usage,
      channelId: admitted.candidate.id,
      attempts,
      ttfbMs,
    });
    const endWithError = async (clientError: GatewayError) => {
      await write(framer.error(JSON.stringify(errorBodyFor(routeFamilyOf(request.url), clientError))));
      raw.end();
    };
    // Cut short by the client (nobody left to tell) or by the shutdown deadline (told in its dialect);
    // billed alike, for what was reported or delivered.
    const cutShort = async (): Promise<RequestOutcome> => {
      const usage = usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars);
      if (!endedByShutdown(signal)) return outcome('client_disconnect', usage);
      await endWithError(new GatewayError('service_unavailable', SHUTDOWN_MESSAGE));
      return outcome('shutdown', usage);
    };

    try {
      let next = opened.first;
      while (!next.done) {
        await relayRead(next.value, relay);
        if (signal.aborted) break;
        next = await iterator.next();
      }
      if (signal.aborted) return await cutShort();
      for (const json of relay.converter.finish()) await write(framer.chunk(json));
      await write(framer.end());
      raw.end();
      return outcome('completed', lastUsage);
    } catch (error) {
      if (signal.aborted) return await cutShort();
      const usage = usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars);
      if (!(error instanceof UpstreamError)) {
        this.logger.error({ err: error, requestId: request.id }, 'stream relay failed');
      }
      const clientError =
        error instanceof UpstreamError
          ? toClientError(error.failure)
          : new GatewayError('internal', 'The stream failed.', { cause: error });
      await endWithError(clientError);
      return outcome('upstream_error_mid_stream', usage);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private withFailover<T>(admission: TextAdmission, attempt: (admitted: AdmittedCandidate) => Promise<T>) {
    return withChannelFailover(
      admission.candidates,
      {
        breaker: this.breaker,
        maxAttempts: this.config.maxAttempts,
        canServe: admission.serves,
        observe: this.attemptMetrics.observe,
      },
      (candidate) => attempt(admission.admit(candidate) as AdmittedCandidate),
    );
  }

  private settle(
    ingress: TextIngress,
    request: FastifyRequest,
    key: ResolvedKey,
    admission: TextAdmission,
    outcome: RequestOutcome,
    lease: LeasedHold | undefined,
  ): void {
    const costMicros = outcome.usage ? textCostMicros(toBillableUsage(outcome.usage), admission.price) : 0n;
    this.recorder.settle({
      requestId: request.id,
      // Captured as far as the account can pay; the settlement logs the rest as the request's overage.
      captureMicros: costMicros,
      log: settlementLogOf(
        key,
        ingress.model,
        ingress.route,
        gatewayState(request).startedAt,
        outcome,
        outcome.usage,
      ),
      lease: lease && this.holds.release(lease, costMicros),
    });
  }
}
