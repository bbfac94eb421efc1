import {
  isVideoImageForm,
  parseBase64DataUrl,
  videoRefusal,
  type VideoCall,
  type VideoImage,
  type VideoImageRole,
  type VideoMode,
  type VideoRefusal,
  type VideoRequest,
} from '@gateway/providers-core';
import { imageSize } from 'image-size';
import type { CompatVideoFamily } from './compat-video-families';

export type VideoImagesDecision =
  { ok: true; mode: VideoMode; images: VideoCall['images']; warnings: string[] } | VideoRefusal;

const ROLE_ORDER: Readonly<Record<VideoImageRole, number>> = { first_frame: 0, reference: 1, last_frame: 2 };

/**
 * The images by family (upstreams.md §2.4; interface spec "Image inputs by style"):
 * - `delta-*`: one image, the first frame (a reference image is read as one; a last frame is refused);
 * - `epsilon_*`: reference images only on its wire: every image is sent as a reference (frames are
 *   told so), which puts the video in reference mode;
 * - `zeta-video-*`: up to 6 uploaded files; one is the first frame, exactly two the first and last
 *   frame, more are references; an image URL cannot be uploaded (adapters never download);
 * - open families: the images as given, in `images[]`.
 * Every image must be an http(s) URL or a Base64 `data:image/…` URI.
 */
export function decideVideoImages(request: VideoRequest, family: CompatVideoFamily): VideoImagesDecision {
  const model = request.model;
  const badForm = request.images.find((image) => !isVideoImageForm(image.url));
  if (badForm) {
    return videoRefusal(
      badForm.source,
      `${badForm.source} must be an http(s) URL or a data:image/…;base64, URI`,
    );
  }
  if (request.images.length > family.maxImages) {
    const extra = request.images[family.maxImages];
    const count = family.maxImages === 1 ? 'one image' : `at most ${family.maxImages} images`;
    return videoRefusal(extra.source, `${model} takes ${count}`);
  }
  if (request.images.length === 0) return { ok: true, mode: 'text', images: [], warnings: [] };
  switch (family.kind) {
    case 'delta':
      return deltaImages(request.images, model);
    case 'epsilon':
      return epsilonImages(request.images, model);
    case 'zeta':
      return zetaImages(request.images, model);
    case 'open':
      return openImages(request.images);
  }
}

function deltaImages(images: VideoImage[], model: string): VideoImagesDecision {
  const [image] = images;
  if (image.role === 'last_frame') {
    return videoRefusal(
      image.source,
      `${model} takes one image, the first frame: a last frame cannot be expressed on its wire`,
    );
  }
  return { ok: true, mode: 'first_frame', images: [{ role: 'first_frame', url: image.url }], warnings: [] };
}

function epsilonImages(images: VideoImage[], model: string): VideoImagesDecision {
  const warnings = images
    .filter((image) => image.role !== 'reference')
    .map(
      (image) =>
        `${model} takes reference images only on its wire: the ${image.role.replace('_', ' ')} in ${image.source} was sent as a reference image`,
    );
  const references = images.map((image) => ({ role: 'reference' as const, url: image.url }));
  return { ok: true, mode: 'reference', images: references, warnings };
}

function zetaImages(images: VideoImage[], model: string): VideoImagesDecision {
  const linked = images.find((image) => parseBase64DataUrl(image.url) === undefined);
  if (linked) {
    return videoRefusal(
      linked.source,
      `${model} takes images as uploaded files (input_reference) only: an image URL cannot be sent on its wire; upload the file or give a data:image/…;base64, URI`,
    );
  }
  const ordered = [...images].sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]);
  const lastFrame = ordered.find((image) => image.role === 'last_frame');
  if (lastFrame && ordered.length !== 2) {
    return videoRefusal(
      lastFrame.source,
      `${model} reads a last frame only from exactly two images (the first and the last frame)`,
    );
  }
  if (ordered.length === 1) {
    return {
      ok: true,
      mode: 'first_frame',
      images: [{ role: 'first_frame', url: ordered[0].url }],
      warnings: [],
    };
  }
  if (ordered.length === 2) {
    const warnings = lastFrame ? [] : [`${model} reads exactly two images as the first and the last frame`];
    return {
      ok: true,
      mode: 'first_last',
      images: [
        { role: 'first_frame', url: ordered[0].url },
        { role: 'last_frame', url: ordered[1].url },
      ],
      warnings,
    };
  }
  return {
    ok: true,
    mode: 'reference',
    images: ordered.map((image) => ({ role: image.role, url: image.url })),
    warnings: [],
  };
}

function openImages(images: VideoImage[]): VideoImagesDecision {
  const roles = images.map((image) => image.role);
  const mode: VideoMode =
    images.length === 1 && roles[0] === 'first_frame'
      ? 'first_frame'
      : images.length === 2 && roles.includes('first_frame') && roles.includes('last_frame')
        ? 'first_last'
        : 'reference';
  return { ok: true, mode, images: images.map(({ role, url }) => ({ role, url })), warnings: [] };
}

/** The pixel size of a `data:` URI image, or undefined for a URL (not fetched) or unreadable bytes. */
export function dataImageDimensions(url: string): { width: number; height: number } | undefined {
  const dataUrl = parseBase64DataUrl(url);
  if (!dataUrl) return undefined;
  try {
    const { width, height } = imageSize(Buffer.from(dataUrl.data, 'base64'));
    return width && height ? { width, height } : undefined;
  } catch {
    // image-size throws for bytes it cannot read; the upstream refuses them with its own message.
    return undefined;
  }
}
