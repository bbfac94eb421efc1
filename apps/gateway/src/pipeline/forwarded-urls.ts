import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { checkForwardedUrlValue, type BodyCheckContext } from '@gateway/contracts';
import {
  PrivateHostAllowList,
  videoImageParamOf,
  type ByteStrings,
  type ImageInput,
  type VideoRequest,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { CONFIG } from '../platform/infrastructure/tokens';

/** The parts of a video request that may carry URLs an upstream fetches. */
type VideoUrlFields = Pick<VideoRequest, 'images' | 'clips' | 'subjects' | 'metadata' | 'extras'>;

/** A field that holds a URL, by its name: `url`, `Url`, `image_url`, `image_urls`, `wm_url`, `fileUri` … */
const URL_FIELD = /ur[il]s?$/i;
/** What a URL field may hold that is not fetched from the network: bytes, a channel's own asset. */
const NOT_FETCHED = /^(?:data:|asset:\/\/)/i;

/**
 * The one policy for a URL the gateway hands to an upstream, which fetches it (docs/urls.md):
 * checkForwardedUrl with the operator's SSRF_ALLOW_HOSTS, each refusal the client's 400 naming the
 * field, before anything is held or sent. Every route that forwards a URL checks it here, or, where
 * a body's validation already visits its URL fields (the text routes), through `bodyChecks`.
 */
@Injectable()
export class ForwardedUrls {
  /** The same policy and allow-list for checkBody's rules, which judge a URL field during their walk. */
  readonly bodyChecks: BodyCheckContext;

  constructor(@Inject(CONFIG) config: GatewayConfig) {
    this.bodyChecks = { forwardedUrlAllowList: new PrivateHostAllowList(config.ssrfAllowHosts) };
  }

  /** Throws the client's 400 naming `param` unless `url` may be handed to an upstream. */
  check(url: string, param: string): void {
    const problem = checkForwardedUrlValue(url, this.bodyChecks);
    if (problem !== undefined) throw GatewayError.invalidRequest(`${param} ${problem}.`, param);
  }

  /**
   * Checks every URL field inside a value passed on as sent (a family's extras, `metadata`, a body
   * the wire takes as it is), at any depth, by field name: a string in a field named like a URL, or
   * in a list of them. Text fields (prompts) are not URLs and are not read.
   */
  checkFieldsOf(value: unknown, path: string): void {
    this.checkFieldsAt(value, path, false);
  }

  /** The images of an image request given by URL (`image` on the wire, a list or one). */
  checkImageInputs(images: readonly ImageInput[]): void {
    images.forEach((image, index) => {
      if (image.kind === 'url') this.check(image.url, images.length === 1 ? 'image' : `image[${index}]`);
    });
  }

  /** The URLs of a video request: its images, clips, subjects' images, and URL fields of metadata and extras. */
  checkVideoRequest(fields: VideoUrlFields, byteStrings?: ByteStrings): void {
    for (const image of fields.images) {
      this.checkValue(image.url, videoImageParamOf(fields.images, image), byteStrings);
    }
    fields.clips.forEach((clip, index) =>
      this.checkValue(clip.url, clip.source ?? `clips[${index}]`, byteStrings),
    );
    fields.subjects.forEach((subject, at) =>
      subject.images.forEach((url, index) =>
        this.checkValue(url, `subjects[${at}].images[${index}]`, byteStrings),
      ),
    );
    this.checkFieldsOf(fields.metadata, 'metadata');
    this.checkFieldsOf(fields.extras, '');
  }

  /** A URL field's value: bytes (a `data:` URI or the token standing for one) and asset ids are not fetched. */
  private checkValue(value: string, param: string, byteStrings?: ByteStrings): void {
    if (NOT_FETCHED.test(value) || byteStrings?.bytesOf(value) !== undefined) return;
    this.check(value, param);
  }

  private checkFieldsAt(value: unknown, path: string, inUrlField: boolean): void {
    if (typeof value === 'string') {
      if (inUrlField) this.checkValue(value, path || '(body)');
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => this.checkFieldsAt(item, `${path}[${index}]`, inUrlField));
    } else if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) {
        this.checkFieldsAt(item, path ? `${path}.${name}` : name, URL_FIELD.test(name));
      }
    }
  }
}
