import { Inject, Injectable } from '@nestjs/common';
import { imageSize } from 'image-size';
import { ALPHA_IMAGE_MAX_BYTES, alphaImageHeaderRefusal, type ImageHeader } from '@gateway/providers';
import { SafeFetchError, type SafeFetcher, type SafeFetchResponse } from '@gateway/providers-core';
import type { GatewayError } from '@gateway/errors';
import { SAFE_FETCHER } from '../../../platform/infrastructure/tokens';
import { discardBody } from '../../../tasks/content/opened-content';
import { alphaFieldError, alphaRefusalError } from './alpha-refusal.error';

/** An input image given by URL, and the request field that names it (`images[0]`, `subjects[1].images[2]`). */
export interface UrlImage {
  url: string;
  param: string;
}

/**
 * The most of a URL image read to find its header. PNG and WebP state their size in the first 30
 * bytes; a JPEG only at its frame header, after its EXIF and colour profile segments, which fit in
 * this budget in practice (the rules read Base64 images in the same steps).
 */
export const URL_IMAGE_HEADER_BUDGET = 1024 * 1024;
const RANGE = `bytes=0-${URL_IMAGE_HEADER_BUDGET - 1}`;
/** `bytes 0-1023/52428801`: the size of the whole file after the slash (`*` when the server does not say). */
const CONTENT_RANGE_TOTAL = /^bytes\s+\d+-\d+\/(\d+)\s*$/i;
const MAX_SIZE_TEXT = `${ALPHA_IMAGE_MAX_BYTES / 1024 / 1024} MB`;

/**
 * Checks the alpha family's URL images before anything is held (issue 22: format and dimensions read
 * from the image header). Each URL goes through the SSRF-safe fetcher (a host at a private address is
 * refused, never connected to), asking for the first URL_IMAGE_HEADER_BUDGET bytes with a Range, and
 * reading only until image-size finds the header in what has arrived; the connection is then closed.
 * What is checked:
 * - the URL answers 200 or 206 (otherwise the upstream could not download it either);
 * - the file's size, where the answer states it (Content-Range's total, or Content-Length of a 200),
 *   is at most 50 MB; a size the server does not state is not checked;
 * - the header, within the budget, is a png, jpeg or webp image of at least 128×128 pixels with an
 *   aspect between 1:4 and 4:1 (the alpha rules' alphaImageHeaderRefusal).
 * Each refusal names the image's field and the rule, in the alpha envelope.
 */
@Injectable()
export class AlphaUrlImages {
  constructor(@Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher) {}

  /** Throws the refusal of the first image at fault, in the request's order; the images are read together. */
  async check(images: readonly UrlImage[]): Promise<void> {
    const refusals = await Promise.all(images.map((image) => this.refusalOf(image)));
    const refusal = refusals.find((found) => found !== undefined);
    if (refusal) throw refusal;
  }

  private async refusalOf({ url, param }: UrlImage): Promise<GatewayError | undefined> {
    let response: SafeFetchResponse;
    try {
      response = await this.fetcher.fetch(url, {
        headers: { range: RANGE },
        maxBytes: ALPHA_IMAGE_MAX_BYTES,
      });
    } catch (error) {
      if (error instanceof SafeFetchError) return fetchRefusal(error, param);
      throw error;
    }
    if (response.status !== 200 && response.status !== 206) {
      await discardBody(response.body);
      return downloadFailure(param, `it answered HTTP ${response.status}`);
    }
    const size = statedSizeOf(response);
    if (size !== undefined && size > ALPHA_IMAGE_MAX_BYTES) {
      await discardBody(response.body);
      return tooLarge(param, size);
    }
    const header = await headerOf(response.body);
    if (!header) {
      return alphaFieldError(
        'ImageFormatInvalid',
        param,
        `${param} is not a png, jpeg, jpg or webp image: no image header in its first ${URL_IMAGE_HEADER_BUDGET} bytes`,
      );
    }
    const refusal = alphaImageHeaderRefusal(header, param);
    return refusal && alphaRefusalError(refusal);
  }
}

/** Reads chunks until image-size finds a header in them, or the budget or the body ends. */
async function headerOf(body: AsyncIterable<Buffer>): Promise<ImageHeader | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    const header = readHeader(Buffer.concat(chunks, length));
    // Leaving the loop ends the fetch: the rest of the file is never read.
    if (header || length >= URL_IMAGE_HEADER_BUDGET) return header;
  }
  return undefined;
}

function readHeader(bytes: Buffer): ImageHeader | undefined {
  try {
    const { type, width, height } = imageSize(bytes);
    return type && width > 0 && height > 0 ? { format: type, width, height } : undefined;
  } catch {
    // image-size throws on bytes it cannot read, and on a header not wholly arrived yet.
    return undefined;
  }
}

function statedSizeOf(response: SafeFetchResponse): number | undefined {
  const header =
    response.status === 206 ? response.headers['content-range'] : response.headers['content-length'];
  if (typeof header !== 'string') return undefined;
  const text = response.status === 206 ? CONTENT_RANGE_TOTAL.exec(header)?.[1] : header;
  const size = Number(text);
  return text !== undefined && Number.isSafeInteger(size) ? size : undefined;
}

function fetchRefusal(error: SafeFetchError, param: string): GatewayError {
  switch (error.code) {
    case 'forbidden_address':
      return alphaFieldError(
        'ImageDownloadFailure',
        param,
        `${param} is at a non-public address; the gateway does not fetch it`,
      );
    case 'invalid_url':
      return alphaFieldError('FieldInvalid', param, `${param} is not a URL an image can be downloaded from`);
    case 'too_large':
      // The fetcher refuses a 200 whose Content-Length is over the cap before any byte is read.
      return tooLarge(param);
    default:
      return downloadFailure(param, error.message);
  }
}

function downloadFailure(param: string, why: string): GatewayError {
  return alphaFieldError('ImageDownloadFailure', param, `${param} could not be downloaded: ${why}`);
}

function tooLarge(param: string, size?: number): GatewayError {
  const stated = size === undefined ? '' : `, not ${size} bytes`;
  return alphaFieldError('FieldInvalid', param, `${param} must be at most ${MAX_SIZE_TEXT}${stated}`);
}
