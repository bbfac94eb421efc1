import {
  postForJsonObject,
  type ImageResult,
  type PlainKeyCredentials,
  type SynchronousImageAdapter,
} from '@gateway/providers-core';
import { classifyEtaError } from '../eta-error.classifier';
import { etaDataPlaneUrl, etaHeaders } from '../eta-request.util';
import { toIotaRequestBody } from './iota-image-request.util';
import { fromIotaResponse } from './iota-image-response.util';
import { iotaImageRules } from './iota-image.rules';
import { iotaSizeTier } from './iota-image-size.util';

/**
 * iota images on the eta data plane (upstreams.md §6.3): one synchronous call, generations only. The
 * answer's URLs (24 hours) or Base64 are handed on as they came; the gateway converts them.
 */
export const iotaImageAdapter: SynchronousImageAdapter<PlainKeyCredentials> = {
  mode: 'synchronous',
  plan: iotaImageRules.plan,

  async generate(call, context): Promise<ImageResult> {
    const { payload } = await postForJsonObject(
      context,
      {
        url: etaDataPlaneUrl(context.channel.baseUrl, '/images/generations'),
        headers: etaHeaders(context.channel.credentials.apiKey),
        body: JSON.stringify(toIotaRequestBody(call)),
      },
      classifyEtaError,
    );
    const { images, itemErrors } = fromIotaResponse(payload);
    return {
      images,
      itemErrors,
      // Priced by the size sent, the tier the hold was taken at; only the returned images count.
      usage: { images: { count: images.length, ...(call.size ? { size: iotaSizeTier(call.size) } : {}) } },
      warnings: [],
    };
  },
};
