import type { ImageGenerationCall } from '@gateway/providers-core';

/**
 * One generateContent request for one image (upstreams.md §1.3): the prompt as a text part followed by
 * the reference images as inlineData parts in one user turn; `responseModalities: ["IMAGE"]`, since
 * image models return images only when asked and a text part would be tokens nobody reads;
 * `imageConfig` with the ratio (when one was asked) and the tier the request was priced at.
 */
export function toKappaImageRequestBody(call: ImageGenerationCall): Record<string, unknown> {
  const parts: Array<Record<string, unknown>> = [{ text: call.prompt }];
  for (const image of call.images) {
    // The rules admit bytes only; a URL has no inlineData form.
    if (image.kind === 'bytes') {
      parts.push({ inlineData: { mimeType: image.contentType, data: image.bytes.toString('base64') } });
    }
  }
  const imageConfig: Record<string, unknown> = {};
  if (call.aspectRatio !== undefined) imageConfig.aspectRatio = call.aspectRatio;
  if (call.size?.kind === 'tier') imageConfig.imageSize = call.size.tier;
  return {
    contents: [{ role: 'user', parts }],
    generationConfig: { responseModalities: ['IMAGE'], imageConfig },
  };
}
