import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { attemptImages, imageCaptureMicros, type PlannedImages } from '@gateway/images';
import type { CancellationSignal, ImageOperation, ImageRequest, ImageResult } from '@gateway/providers-core';
import { ChannelCatalog, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { AdapterContexts } from '../../../pipeline/adapter-contexts';
import { ServedFailure } from '../../../pipeline/failure-answer';
import { ForwardedUrls } from '../../../pipeline/forwarded-urls';
import type { GenerationOutcome } from '../../../pipeline/request-log-fields';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { ChannelAttempts } from '../../../pipeline/channel-attempts';
import type {
  GenerationAnswer,
  GenerationCall,
  GenerationSettlement,
  SynchronousGeneration,
} from '../../../pipeline/synchronous-generation';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { admitImageRequest, type ImageAdmission } from './image-admission';
import { ImageDeliveryService, type DeliveredImage } from './image-delivery.service';

/** Each route's name in the request log. */
const IMAGE_ROUTES: Record<ImageOperation, string> = {
  generate: '/v1/images/generations',
  edit: '/v1/images/edits',
};

/** One image request as its route hands it over: the operation, and how to read its body (JSON or form). */
export interface ImageInputOf {
  operation: ImageOperation;
  read(): ImageRequest | Promise<ImageRequest>;
}

/** The outcome of one image request: what its settlement captures and its log row records. */
interface ImageOutcome extends GenerationOutcome {
  /** Images in the client's answer. */
  imageCount?: number;
  made?: MadeImages;
}

interface MadeImages {
  result: ImageResult;
  planned: PlannedImages;
}

/** An image request admitted: its channels, price and hold, and the request read (an image job stores it). */
export interface ImagePlan extends ImageAdmission {
  model: string;
  route: string;
  responseFormat: ImageRequest['responseFormat'];
  request: ImageRequest;
}

/**
 * What the image routes (generation and edit) contribute to the generation pipeline: the family rules
 * and the price at admission (held as a row: n images at the planned tier), one channel attempt
 * (failover happens only before the answer), the images converted to what the client asked for, and
 * the capture of the images delivered (the rest released), on every ending.
 */
@Injectable()
export class ImageGenerationService implements SynchronousGeneration<ImageInputOf, ImagePlan, ImageOutcome> {
  readonly holdStyle = 'row';
  readonly holdHint = 'Add credit or lower n.';

  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly prices: PriceBook,
    private readonly contexts: AdapterContexts,
    private readonly attempts: ChannelAttempts,
    private readonly deliveries: ImageDeliveryService,
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The request may wait for an upstream task: the hold must outlive that wait. */
  holdTtlMs(config: GatewayConfig): number {
    return Math.max(config.holdTtlMs, 2 * config.imageTaskTimeoutMs);
  }

  routeOf(input: ImageInputOf): string {
    return IMAGE_ROUTES[input.operation];
  }

  /** Reads the client's body (its refusal, like every refusal before the hold, is logged with nothing charged). */
  async plan(input: ImageInputOf, call: GenerationCall): Promise<ImagePlan> {
    const imageRequest = await input.read();
    call.model = imageRequest.model;
    this.forwardedUrls.checkImageInputs(imageRequest.images);
    const { model } = imageRequest;
    const admission = admitImageRequest(
      imageRequest,
      input.operation,
      call.key,
      this.catalog.candidatesFor(model),
      this.prices.priceFor(model),
    );
    return {
      ...admission,
      model,
      route: IMAGE_ROUTES[input.operation],
      responseFormat: imageRequest.responseFormat,
      request: imageRequest,
    };
  }

  async answer(
    plan: ImagePlan,
    call: GenerationCall,
    signal: CancellationSignal,
  ): Promise<GenerationAnswer<ImageOutcome>> {
    const { value, candidate, attempts, durationMs } = await this.attempts.run(
      plan.candidates,
      (chosen) => this.attempt(plan, chosen, call.request.id, signal),
      plan.serves,
    );
    let data: Array<DeliveredImage | undefined>;
    try {
      data = await this.deliver(value, plan.responseFormat, call.request, signal);
    } catch (error) {
      throw new ServedFailure(error, candidate.id, attempts.length);
    }
    return {
      kind: 'whole',
      body: responseBody(value.result, data, call.startedAt),
      warnings: warningsOf(value, data),
      served: { candidate, durationMs },
      outcome: {
        httpStatus: 200,
        endReason: 'completed',
        channelId: candidate.id,
        attempts: attempts.length,
        imageCount: countDelivered(data),
        made: value,
      },
    };
  }

  settlementOf(plan: ImagePlan, outcome: ImageOutcome): GenerationSettlement {
    const imageCount = outcome.imageCount ?? 0;
    const { made } = outcome;
    if (!made) return { captureMicros: 0n, imageCount };
    return {
      captureMicros: imageCaptureMicros(
        made.result.usage,
        imageCount,
        { n: made.planned.call.n, priceTier: made.planned.priceTier },
        plan.price,
      ),
      tokens: made.result.usage.tokens,
      imageCount,
    };
  }

  /** One channel's attempt; it resolves only with images, so that a failure can still fail over. */
  private async attempt(
    admission: ImageAdmission,
    candidate: ChannelCandidate,
    requestId: string,
    signal: CancellationSignal,
  ): Promise<MadeImages> {
    const planned = admission.planFor(candidate);
    const result = await attemptImages(planned, candidate, this.contexts.for(candidate, signal), requestId, {
      timeoutMs: this.config.imageTaskTimeoutMs,
      pollIntervalMs: this.config.imageTaskPollIntervalMs,
    });
    return { result, planned: planned as PlannedImages };
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
