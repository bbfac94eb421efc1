import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { HoldService, PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import {
  RequestCancellation,
  type CancellationSignal,
  type ImageOperation,
  type ImageRequest,
  type ImageResult,
} from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '../errors/gateway-error';
import { AdapterContexts } from '../generation/adapter-contexts';
import { AttemptMetrics } from '../generation/attempt-metrics';
import { toClientError, withChannelFailover } from '../generation/channel-failover';
import { answerFailure } from '../generation/failure-answer';
import { ForwardedUrls } from '../generation/forwarded-urls';
import { takenOrRefused } from '../generation/hold-refusal';
import { InFlightGenerations } from '../generation/in-flight-generations';
import { refusalLogOf, settlementLogOf, type GenerationOutcome } from '../generation/request-log-fields';
import { SettlementRecorder } from '../generation/settlement-recorder';
import { warningHeader } from '../generation/warning-header';
import { gatewayState } from '../http/gateway-request';
import { CONFIG, LOGGER } from '../infrastructure/tokens';
import { publicBaseOf } from '../stored-files/stored-file-url.util';
import { admitImageRequest, type ImageAdmission, type PlannedImages } from './image-admission';
import { makeImages } from './image-calls';
import { imageCaptureMicros } from './image-capture.util';
import { ImageDeliveryService, type DeliveredImage } from './image-delivery.service';

/** Each route's name in the request log. */
const IMAGE_ROUTES: Record<ImageOperation, string> = {
  generate: '/v1/images/generations',
  edit: '/v1/images/edits',
};

/** What the client asks a balance too low to cover to lower. */
const HOLD_HINT = 'Add credit or lower n.';

/** The outcome of one image request: what its settlement captures and its log row records. */
interface ImageOutcome extends GenerationOutcome {
  /** Images in the client's answer. */
  imageCount: number;
  made?: { result: ImageResult; planned: PlannedImages };
}

interface MadeImages {
  result: ImageResult;
  planned: PlannedImages;
}

/**
 * One image request (generation or edit) through the generation pipeline: the family rules and the
 * price at admission → hold (a row: n images at the planned tier) → channel attempts with failover
 * (failover happens only before the first byte reaches the client, here before the answer) → the
 * images converted to what the client asked for → one settlement that captures the images delivered
 * and releases the rest, on every ending.
 */
@Injectable()
export class ImageGenerationService {
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
    private readonly prices: PriceBook,
    private readonly holds: HoldService,
    private readonly recorder: SettlementRecorder,
    private readonly inFlight: InFlightGenerations,
    private readonly contexts: AdapterContexts,
    private readonly attemptMetrics: AttemptMetrics,
    private readonly deliveries: ImageDeliveryService,
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * `readRequest` validates the client's body (JSON or form): its refusal, like every refusal before
   * the hold, is answered and logged with nothing charged.
   */
  async handle(
    operation: ImageOperation,
    readRequest: () => ImageRequest | Promise<ImageRequest>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const state = gatewayState(request);
    state.logRowOwned = true;
    const key = state.apiKey as ResolvedKey;
    const route = IMAGE_ROUTES[operation];
    let imageRequest: ImageRequest | undefined;
    let admission: ImageAdmission;
    try {
      imageRequest = await readRequest();
      this.forwardedUrls.checkImageInputs(imageRequest.images);
      const { model } = imageRequest;
      admission = admitImageRequest(
        imageRequest,
        operation,
        key,
        this.catalog.candidatesFor(model),
        this.prices.priceFor(model),
      );
      const taking = this.holds.take({
        requestId: request.id,
        accountId: key.accountId,
        keyId: key.id,
        model,
        route,
        amount: admission.holdMicros,
        // The request may wait for an upstream task: the hold must outlive that wait.
        ttlMs: Math.max(this.config.holdTtlMs, 2 * this.config.imageTaskTimeoutMs),
      });
      await takenOrRefused(taking, HOLD_HINT, (error) =>
        this.logger.error({ err: error, requestId: request.id }, 'hold failed'),
      );
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(request.id, key, imageRequest?.model, route, state.startedAt, error),
      );
      throw error;
    }
    const { model, responseFormat } = imageRequest;
    const cancellation = new RequestCancellation();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
    });
    await this.inFlight.run(cancellation, async () => {
      const outcome = await this.answer(admission, responseFormat, request, reply, cancellation);
      const captureMicros = outcome.made
        ? imageCaptureMicros(
            outcome.made.result.usage,
            outcome.imageCount,
            { n: outcome.made.planned.call.n, priceTier: outcome.made.planned.priceTier },
            admission.price,
          )
        : 0n;
      this.recorder.settle({
        requestId: request.id,
        captureMicros,
        log: settlementLogOf(
          key,
          model,
          route,
          state.startedAt,
          outcome,
          outcome.made?.result.usage.tokens,
          outcome.imageCount,
        ),
      });
    });
  }

  private async answer(
    admission: ImageAdmission,
    format: ImageRequest['responseFormat'],
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<ImageOutcome> {
    let served: { candidate: ChannelCandidate; attempts: number } | undefined;
    try {
      const { value, candidate, attempts, durationMs } = await withChannelFailover(
        admission.candidates,
        {
          breaker: this.breaker,
          maxAttempts: this.config.maxAttempts,
          canServe: admission.serves,
          observe: this.attemptMetrics.observe,
        },
        (chosen) => this.attempt(admission, chosen, request.id, signal),
      );
      this.attemptMetrics.observe(candidate, durationMs);
      served = { candidate, attempts: attempts.length };
      const data = await this.deliver(value, format, request, signal);
      reply
        .code(200)
        .headers(warningHeader(warningsOf(value, data)))
        .header('content-type', 'application/json; charset=utf-8')
        .send(responseBody(value.result, data, gatewayState(request).startedAt));
      return {
        httpStatus: 200,
        endReason: 'completed',
        channelId: candidate.id,
        attempts: attempts.length,
        imageCount: countDelivered(data),
        made: value,
      };
    } catch (error) {
      const failed = answerFailure(error, request, reply, signal, this.logger);
      return served
        ? { ...failed, channelId: served.candidate.id, attempts: served.attempts, imageCount: 0 }
        : { ...failed, imageCount: 0 };
    }
  }

  /** One channel's attempt; it resolves only with images, so that a failure can still fail over. */
  private async attempt(
    admission: ImageAdmission,
    candidate: ChannelCandidate,
    requestId: string,
    signal: CancellationSignal,
  ): Promise<MadeImages> {
    const planned = admission.planFor(candidate);
    // The failover asks admission.serves first: a candidate without a plan is never attempted.
    if (!planned) throw new GatewayError('internal', `No image plan for channel ${candidate.id}.`);
    const result = await makeImages(planned, candidate, this.contexts.for(candidate, signal), requestId, {
      timeoutMs: this.config.imageTaskTimeoutMs,
      pollIntervalMs: this.config.imageTaskPollIntervalMs,
    });
    if (result.images.length === 0) {
      const itemFailure = result.itemErrors[0]?.failure;
      throw itemFailure
        ? toClientError(itemFailure)
        : new GatewayError('upstream_unavailable', 'The upstream answered without images.');
    }
    return { result, planned };
  }

  /** The answer's `data[]`; an error when not one image could be delivered (nothing is charged then). */
  private async deliver(
    made: MadeImages,
    format: ImageRequest['responseFormat'],
    request: FastifyRequest,
    signal: CancellationSignal,
  ): Promise<Array<DeliveredImage | undefined>> {
    const data = await this.deliveries.deliver(made.result.images, {
      format,
      baseUrl: publicBaseOf(this.config.publicBaseUrl, request),
      requestId: request.id,
      signal,
    });
    if (countDelivered(data) === 0) {
      throw new GatewayError(
        'upstream_unavailable',
        'The upstream made the images but they could not be retrieved; nothing was charged.',
      );
    }
    return data;
  }
}

function countDelivered(data: ReadonlyArray<DeliveredImage | undefined>): number {
  return data.filter((item) => item !== undefined).length;
}

function responseBody(
  result: ImageResult,
  data: ReadonlyArray<DeliveredImage | undefined>,
  startedAt: number,
) {
  return {
    created: Math.floor(startedAt / 1000),
    data: data.filter((item): item is DeliveredImage => item !== undefined),
    ...(result.metadata ? { metadata: result.metadata } : {}),
  };
}

/** The rules' and the adapter's warnings, and the images the client does not get, in one header. */
function warningsOf(made: MadeImages, data: ReadonlyArray<DeliveredImage | undefined>): string[] {
  const warnings = [...made.planned.warnings, ...made.result.warnings];
  const { itemErrors } = made.result;
  if (itemErrors.length > 0) {
    warnings.push(
      `${itemErrors.length} image(s) failed upstream and are not charged: ${itemErrors[0].failure.message}`,
    );
  }
  const undelivered = data.length - countDelivered(data);
  if (undelivered > 0) {
    warnings.push(`${undelivered} image(s) could not be retrieved from the upstream and are not charged`);
  }
  return warnings;
}
