import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type {
  CancellationSignal,
  GeneratedImage,
  ImageResponseFormat,
  SafeFetcher,
} from '@gateway/providers-core';
import { bytesOfGeneratedImage } from '@gateway/images';
import type { ObjectStore } from '@gateway/storage';
import { LOGGER, OBJECT_STORE, SAFE_FETCHER } from '../../../platform/infrastructure/tokens';
import { storedFileUrl } from '../../../platform/stored-files/stored-file-url.util';

/** One item of the answer's `data[]`. */
export interface DeliveredImage {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

export interface ImageDeliveryTarget {
  format: ImageResponseFormat;
  /** Where the gateway's own URLs start (see publicBaseOf). */
  baseUrl: string;
  requestId: string;
  signal: CancellationSignal;
}

/**
 * Turns what an upstream produced into what the client asked for. Adapters never convert; the gateway
 * does, one way for every family: it takes the image's bytes (as sent, or downloaded through the
 * SSRF-safe fetcher when the upstream sent a URL), then answers Base64, or stores the bytes and
 * answers with its own URL. An upstream URL is mirrored rather than passed through: clients get one
 * lifetime (the store's retention) whatever the family (`draw-*` URLs last an hour), and never the
 * address of a channel.
 *
 * An image that cannot be delivered (a refused or failed download, bytes that are no image) is left
 * out of the answer and not charged; the caller says so in a warning, or answers an error when none is left.
 */
@Injectable()
export class ImageDeliveryService {
  constructor(
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The deliverable images in the upstream's order; the others are undefined. */
  deliver(
    images: readonly GeneratedImage[],
    target: ImageDeliveryTarget,
  ): Promise<Array<DeliveredImage | undefined>> {
    return Promise.all(
      images.map((image, index) =>
        this.deliverOne(image, target).catch((error: unknown) => {
          this.logger.warn({ err: error, requestId: target.requestId, index }, 'image not delivered');
          return undefined;
        }),
      ),
    );
  }

  private async deliverOne(image: GeneratedImage, target: ImageDeliveryTarget): Promise<DeliveredImage> {
    const { bytes, contentType } = await bytesOfGeneratedImage(image, this.fetcher, target.signal);
    const delivered: DeliveredImage =
      target.format === 'b64'
        ? { b64_json: bytes.toString('base64') }
        : { url: storedFileUrl(target.baseUrl, (await this.store.put(bytes, { contentType })).id) };
    if (image.revisedPrompt !== undefined) delivered.revised_prompt = image.revisedPrompt;
    return delivered;
  }
}
