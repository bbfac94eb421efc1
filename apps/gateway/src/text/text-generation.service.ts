import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import {
  HoldLeases,
  PriceBook,
  textCostMicros,
  type LeasedHold,
  type SettlementLogInput,
} from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { SeriesCache, type GatewayMetrics } from '@gateway/observability';
import {
  RequestCancellation,
  systemClock,
  UpstreamError,
  type AdapterContext,
  type CancellationSignal,
  type TextStream,
  type TextStreamRead,
  type TokenUsage,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker, type ChannelCandidate } from '@gateway/routing';
import { errorBodyFor } from '../errors/error-envelope.renderer';
import { GatewayError } from '../errors/gateway-error';
import { routeFamilyOf } from '../errors/route-family';
import { sendGatewayError } from '../http/error-reply';
import { createCoalescingWriter } from '../http/coalescing-writer';
import { gatewayState } from '../http/gateway-request';
import { CONFIG, LOGGER, METRICS, UPSTREAM_HTTP } from '../infrastructure/tokens';
import {
  FailoverExhaustedError,
  toClientError,
  withChannelFailover,
  type AttemptObserver,
} from './channel-failover';
import { textCharsInChunk, usageForEndedStream } from './partial-usage.util';
import { SettlementRecorder } from './settlement-recorder';
import { relayRead, type ReadRelay } from './read-relay';
import { createStreamFramer } from './stream-framing';
import { admitTextRequest, type AdmittedCandidate, type TextAdmission } from './text-admission';
import type { TextIngress } from './text-ingress';

/**
 * Translation rules that changed the request travel back in one header, so a client sees, for
 * example, that its safety settings could not be forwarded to an OpenAI-style channel.
 */
function translationWarningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0
    ? {}
    : { 'x-gateway-warning': warnings.join(' | ').replace(/[^\x20-\x7e]/g, '?') };
}

/** The outcome of one request, for its settlement and its log row. */
interface RequestOutcome {
  httpStatus: number;
  endReason: string;
  usage?: TokenUsage;
  channelId?: string;
  attempts: number;
  ttfbMs?: number;
}

interface OpenedStream {
  admitted: AdmittedCandidate;
  upstream: TextStream;
  iterator: AsyncIterator<TextStreamRead>;
  first: IteratorResult<TextStreamRead>;
}

/**
 * One text request from admission to settlement: hold → channel attempts with failover → answer
 * (whole, or streamed chunk by chunk without buffering) → exactly one settlement after the answer.
 */
@Injectable()
export class TextGenerationService {
  private readonly upstreamDuration = new SeriesCache<{ observe(seconds: number): void }>();
  private readonly observeAttempt: AttemptObserver = (candidate, durationMs, failure) => {
    this.upstreamDuration
      .get(candidate.name, () => this.metrics.upstreamDuration.labels({ channel: candidate.name }))
      .observe(durationMs / 1000);
    if (failure) this.metrics.upstreamErrors.inc({ channel: candidate.name, kind: failure.kind });
  };

  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
    private readonly prices: PriceBook,
    private readonly holds: HoldLeases,
    private readonly recorder: SettlementRecorder,
    @Inject(UPSTREAM_HTTP) private readonly http: UpstreamHttpClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
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
    try {
      admission = admitTextRequest(
        ingress,
        key,
        this.catalog.candidatesFor(ingress.model),
        this.prices.priceFor(ingress.model),
        identity,
      );
    } catch (error) {
      this.recordRefusal(ingress, request, key, error);
      throw error;
    }
    const hold = await this.holds
      .take({
        requestId: request.id,
        accountId: key.accountId,
        keyId: key.id,
        model: ingress.model,
        route: ingress.route,
        amount: admission.holdMicros,
        ttlMs: this.config.holdTtlMs,
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error, requestId: request.id }, 'hold failed');
        const refusal = new GatewayError(
          'service_unavailable',
          'Billing is unavailable right now; retry shortly.',
        );
        this.recordRefusal(ingress, request, key, refusal);
        throw refusal;
      });
    if (!hold.ok) {
      const error = new GatewayError(
        'insufficient_balance',
        'The account balance is too low for this request. Add credit or lower maxOutputTokens / max_tokens.',
      );
      this.recordRefusal(ingress, request, key, error);
      throw error;
    }

    const cancellation = new RequestCancellation();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
    });
    const outcome = ingress.framing
      ? await this.streamAnswer(ingress, admission, request, reply, cancellation)
      : await this.wholeAnswer(admission, request, reply, cancellation);
    this.settle(ingress, request, key, admission, outcome, hold.lease);
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
            this.adapterContext(admitted.candidate, signal),
          ),
        }),
      );
      const body = value.admitted.bridge.toClientBody(value.response);
      reply
        .code(200)
        .headers(translationWarningHeader(value.admitted.bridge.warnings))
        .header('content-type', 'application/json; charset=utf-8')
        .send(body);
      this.observeAttempt(candidate, durationMs);
      return {
        httpStatus: 200,
        endReason: value.response.promptBlockReason ? 'prompt_blocked' : 'completed',
        usage: value.response.usage,
        channelId: candidate.id,
        attempts: attempts.length,
      };
    } catch (error) {
      return this.answerFailure(error, request, reply, signal);
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
          this.adapterContext(admitted.candidate, signal),
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
      return this.answerFailure(error, request, reply, signal);
    }
    try {
      return await this.relayStream(ingress, opened, attempts, request, reply, signal);
    } finally {
      // Recorded once the stream is out: before its first write, it would delay the first byte.
      this.observeAttempt(opened.admitted.candidate, attemptMs);
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
      'x-request-id': request.id,
      ...translationWarningHeader(admitted.bridge.warnings),
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

    try {
      let next = opened.first;
      while (!next.done) {
        await relayRead(next.value, relay);
        if (signal.aborted) break;
        next = await iterator.next();
      }
      if (signal.aborted) {
        return outcome(
          'client_disconnect',
          usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars),
        );
      }
      for (const json of relay.converter.finish()) await write(framer.chunk(json));
      await write(framer.end());
      raw.end();
      return outcome('completed', lastUsage);
    } catch (error) {
      const usage = usageForEndedStream(lastUsage, ingress.promptBytes, deliveredChars);
      if (signal.aborted) return outcome('client_disconnect', usage);
      if (!(error instanceof UpstreamError)) {
        this.logger.error({ err: error, requestId: request.id }, 'stream relay failed');
      }
      const clientError =
        error instanceof UpstreamError
          ? toClientError(error.failure)
          : new GatewayError('internal', 'The stream failed.', { cause: error });
      await write(framer.error(JSON.stringify(errorBodyFor(routeFamilyOf(request.url), clientError))));
      raw.end();
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
        observe: this.observeAttempt,
      },
      (candidate) => attempt(admission.admit(candidate) as AdmittedCandidate),
    );
  }

  /** Answers a request that got no upstream answer; the outcome settles the hold with nothing captured. */
  private answerFailure(
    error: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): RequestOutcome {
    const attempts = error instanceof FailoverExhaustedError ? error.attempts.length : 0;
    if (signal.aborted) return { httpStatus: 499, endReason: 'client_disconnect', attempts };
    const clientError =
      error instanceof GatewayError
        ? error
        : new GatewayError('internal', 'Internal error.', { cause: error });
    if (clientError.code === 'internal')
      this.logger.error({ err: error, requestId: request.id }, 'text request failed');
    sendGatewayError(request, reply, clientError);
    return { httpStatus: clientError.httpStatus, endReason: 'upstream_error', attempts };
  }

  private adapterContext(candidate: ChannelCandidate, signal: CancellationSignal): AdapterContext {
    return {
      channel: { baseUrl: candidate.baseUrl, secret: candidate.secret },
      http: this.http,
      clock: systemClock,
      logger: {
        warn: (message, fields) => this.logger.warn({ ...fields, channelId: candidate.id }, message),
        debug: (message, fields) => this.logger.debug({ ...fields, channelId: candidate.id }, message),
      },
      signal,
      headersTimeoutMs: this.config.upstreamHeadersTimeoutMs,
    };
  }

  private settle(
    ingress: TextIngress,
    request: FastifyRequest,
    key: ResolvedKey,
    admission: TextAdmission,
    outcome: RequestOutcome,
    lease: LeasedHold | undefined,
  ): void {
    const costMicros = outcome.usage ? textCostMicros(outcome.usage, admission.price) : 0n;
    if (lease) this.holds.release(lease, costMicros);
    this.recorder.settle({
      requestId: request.id,
      captureMicros: costMicros,
      log: this.logFields(ingress, request, key, outcome),
      lease,
    });
  }

  private recordRefusal(
    ingress: TextIngress,
    request: FastifyRequest,
    key: ResolvedKey,
    error: unknown,
  ): void {
    const httpStatus = error instanceof GatewayError ? error.httpStatus : 500;
    const endReason =
      error instanceof GatewayError && error.code === 'insufficient_balance'
        ? 'insufficient_balance'
        : 'refused';
    this.recorder.logWithoutHold({
      ...this.logFields(ingress, request, key, { httpStatus, endReason, attempts: 0 }),
      requestId: request.id,
      costMicros: 0n,
    });
  }

  /** The request's log fields; the settlement adds the request id and the cost it captured. */
  private logFields(
    ingress: TextIngress,
    request: FastifyRequest,
    key: ResolvedKey,
    outcome: RequestOutcome,
  ): SettlementLogInput {
    return {
      keyId: key.id,
      accountId: key.accountId,
      model: ingress.model,
      channelId: outcome.channelId,
      route: ingress.route,
      httpStatus: outcome.httpStatus,
      endReason: outcome.endReason,
      latencyMs: Date.now() - gatewayState(request).startedAt,
      ttfbMs: outcome.ttfbMs,
      inputTokens: outcome.usage?.inputTokens ?? 0,
      outputTokens: outcome.usage?.outputTokens ?? 0,
      attempts: outcome.attempts,
    };
  }
}
