import {
  postForJsonObject,
  UpstreamError,
  type AdapterContext,
  type GeneratedImage,
  type ImageGenerationCall,
  type ImageItemError,
  type ImageResult,
  type PlainKeyCredentials,
  type SynchronousImageAdapter,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { classifyKappaError } from '../kappa-error.classifier';
import { kappaHeaders, kappaModelUrl } from '../kappa-request.util';
import { toKappaImageRequestBody } from './kappa-image-request.util';
import { fromKappaImageResponse } from './kappa-image-response.util';
import { kappaImageRules } from './kappa-image.rules';

/**
 * kappa images: the images request translated to generateContent (upstreams.md §1), image parts back
 * to images. One call answers one image, so `n` images are `n` concurrent calls; those that fail while
 * others succeed are item errors, as the failed items of a group are on wires that have groups.
 */
export const kappaImageAdapter: SynchronousImageAdapter<PlainKeyCredentials> = {
  mode: 'synchronous',
  plan: kappaImageRules.plan,

  async generate(call, context): Promise<ImageResult> {
    const calls = Array.from({ length: call.n }, () => generateOnce(call, context));
    const settled = await Promise.allSettled(calls);
    const images: GeneratedImage[] = [];
    const itemErrors: ImageItemError[] = [];
    for (const [index, outcome] of settled.entries()) {
      if (outcome.status === 'fulfilled') images.push(...outcome.value);
      // An abort or a programming error is not an item's failure: it ends the whole request.
      else if (outcome.reason instanceof UpstreamError)
        itemErrors.push({ index, failure: outcome.reason.failure });
      else throw outcome.reason;
    }
    if (images.length === 0) throw new UpstreamError(wholeFailureOf(itemErrors));
    const tier = call.size?.kind === 'tier' ? { size: call.size.tier } : {};
    return { images, itemErrors, usage: { images: { count: images.length, ...tier } }, warnings: [] };
  },
};

async function generateOnce(
  call: ImageGenerationCall,
  context: AdapterContext<PlainKeyCredentials>,
): Promise<GeneratedImage[]> {
  const { payload } = await postForJsonObject(
    context,
    {
      url: kappaModelUrl(context.channel.baseUrl, call.upstreamModel, 'generateContent'),
      headers: kappaHeaders(context.channel.credentials.apiKey),
      body: JSON.stringify(toKappaImageRequestBody(call)),
    },
    classifyKappaError,
  );
  return fromKappaImageResponse(payload);
}

/** When every call failed: a failure other than content policy (it may pass elsewhere), else the first. */
function wholeFailureOf(itemErrors: ImageItemError[]): UpstreamFailure {
  const failures = itemErrors.map((itemError) => itemError.failure);
  return failures.find((failure) => failure.kind !== 'content_policy') ?? failures[0];
}
