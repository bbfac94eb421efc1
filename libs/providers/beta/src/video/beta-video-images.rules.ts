import { imageSize } from 'image-size';
import {
  isVideoImageForm,
  parseBase64DataUrl,
  videoRefusal,
  type VideoImage,
  type VideoRefusal,
} from '@gateway/providers-core';
import { BETA_VIDEO_IMAGE_LIMITS as LIMITS } from './beta-video-constraints';

const refuse = (image: VideoImage, message: string): VideoRefusal => videoRefusal(image.source, message);

/**
 * The frames as the wire takes them (§4.3): `image_urls` or `binary_data_base64`, never both, so the
 * frames are all URLs or all uploads. An upload is checked against the wire's limits here, from its
 * header, so that an image the upstream would refuse costs the client no hold; a URL's image is the
 * upstream's to fetch and check.
 */
export function checkBetaVideoImages(frames: readonly VideoImage[], model: string): VideoRefusal | undefined {
  for (const image of frames) {
    if (!isVideoImageForm(image.url)) {
      return refuse(image, `${image.source} must be an http(s) URL or an uploaded image for ${model}`);
    }
  }
  const uploads = frames.filter((image) => image.url.startsWith('data:'));
  if (uploads.length > 0 && uploads.length < frames.length) {
    return refuse(uploads[0], `the frames must be all URLs or all uploaded images for ${model}`);
  }
  for (const image of uploads) {
    const problem = uploadProblem(Buffer.from(parseBase64DataUrl(image.url)?.data ?? '', 'base64'));
    if (problem) return refuse(image, `${image.source} ${problem} for ${model}`);
  }
  return undefined;
}

function uploadProblem(bytes: Buffer): string | undefined {
  if (bytes.length > LIMITS.maxBytes) return 'must be at most 4.7 MB';
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    // image-size throws on bytes it cannot read: no image the upstream could take either.
    return 'is not a readable image';
  }
  const { width = 0, height = 0 } = size;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (long > LIMITS.maxSide) return `must be at most ${LIMITS.maxSide}x${LIMITS.maxSide} pixels`;
  if (short < LIMITS.minShortSide) return `must have a short side of at least ${LIMITS.minShortSide} pixels`;
  if (long > short * LIMITS.maxSideRatio) return `must have sides within ${LIMITS.maxSideRatio}:1`;
  return undefined;
}
