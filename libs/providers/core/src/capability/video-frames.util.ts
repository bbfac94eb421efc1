import type { VideoCall, VideoImage, VideoImageRole, VideoRequest } from './video-adapter';
import { videoRefusal, type VideoRefusal } from './video-refusal';

/** The frames of a family whose images are a first and a last frame only (no reference images), with those roles. */
export interface VideoFrames {
  mode: 'text' | 'first_frame' | 'first_last';
  first?: VideoImage;
  last?: VideoImage;
}

export type VideoFramesRead = ({ ok: true } & VideoFrames) | { ok: false; param: string; message: string };

/**
 * Reads a request's images as a first and a last frame. Roles the request gave are kept; a request that
 * gave none lists its images as references (OpenAI-style `images[]`), which become the first frame and
 * then the last, as the unified style reads one and two images. A mix of both, more than two images,
 * two firsts or two lasts, or a last frame without a first is refused naming the field it came from.
 */
export function videoFramesOf(images: readonly VideoImage[], model: string): VideoFramesRead {
  const firsts = images.filter((image) => image.role === 'first_frame');
  const lasts = images.filter((image) => image.role === 'last_frame');
  const references = images.filter((image) => image.role === 'reference');
  const refuse = (image: VideoImage, message: string): VideoFramesRead => ({
    ok: false,
    param: image.source,
    message,
  });
  if (references.length > 0 && firsts.length + lasts.length > 0) {
    return refuse(
      references[0],
      `${references[0].source} cannot be combined with a first or last frame for ${model}`,
    );
  }
  const ordered = references.length > 0 ? references : [...firsts, ...lasts];
  if (ordered.length > 2 || firsts.length > 1 || lasts.length > 1) {
    return refuse(
      ordered[ordered.length - 1],
      `${model} takes at most 2 images: a first frame and a last frame`,
    );
  }
  const [first, last] =
    references.length > 0
      ? [
          { ...references[0], role: 'first_frame' as const },
          references[1] && { ...references[1], role: 'last_frame' as const },
        ]
      : [firsts[0], lasts[0]];
  if (last && !first) return refuse(last, `a last frame needs a first frame for ${model}`);
  if (!first) return { ok: true, mode: 'text' };
  return last ? { ok: true, mode: 'first_last', first, last } : { ok: true, mode: 'first_frame', first };
}

/**
 * Subjects, reference clips and remixes, which a family whose inputs are frames only has no field for:
 * the first of them the request carries, refused naming its field; undefined when it carries none.
 */
export function nonFrameInputRefusal(request: VideoRequest): VideoRefusal | undefined {
  const { model } = request;
  if (request.subjects.length > 0)
    return { ok: false, param: 'subjects', message: `${model} takes no subjects` };
  if (request.clips.length > 0) {
    return videoRefusal('metadata.video_url', `${model} takes no reference video or audio`);
  }
  if (request.remixOf !== undefined) return videoRefusal('model', `${model} has no remix`);
  return undefined;
}

/** What a frames-only family's rules decide; the rest of its call is empty by definition. */
export type FramesOnlyPlanned = Pick<
  VideoCall,
  'family' | 'mode' | 'prompt' | 'seconds' | 'resolution' | 'size' | 'aspectRatio' | 'extras'
> & { images: ReadonlyArray<{ role: VideoImageRole; url: string }> };

/**
 * The call of a family whose inputs are frames only: no clips, subjects, metadata or remix travel with
 * it, and an image keeps its role and URL only (not the request field it came from).
 */
export function framesOnlyVideoCall(planned: FramesOnlyPlanned): VideoCall {
  return {
    kind: 'video',
    family: planned.family,
    mode: planned.mode,
    prompt: planned.prompt,
    seconds: planned.seconds,
    resolution: planned.resolution,
    size: planned.size,
    aspectRatio: planned.aspectRatio,
    images: planned.images.map(({ role, url }) => ({ role, url })),
    clips: [],
    subjects: [],
    metadata: null,
    extras: planned.extras,
    remixOf: null,
  };
}
