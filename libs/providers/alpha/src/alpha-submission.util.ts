import type { SerialisableObject, VideoCall, VideoMode } from '@gateway/providers-core';
import { alphaReferenceModelName } from './video/alpha-models';

/** The endpoint of each mode (upstreams.md §3.2). */
const PATH_OF_MODE: Readonly<Record<Exclude<VideoMode, 'remix'>, string>> = {
  text: '/text2video',
  first_frame: '/img2video',
  first_last: '/start-end2video',
  reference: '/reference2video',
};

export interface AlphaSubmission {
  path: string;
  body: SerialisableObject;
}

/**
 * The wire request of a planned call: the mode's endpoint, then the §3.3 fields. Frames go in
 * `images` in order (first, last), reference images in `images`, subjects in `subjects[]`; the
 * pass-through fields the rules kept follow as they were written. On reference2video a q2 model is
 * addressed by its generation (`alphaq2`, §3.3†).
 */
export function alphaSubmissionOf(call: VideoCall, upstreamModel: string): AlphaSubmission {
  if (call.mode === 'remix') throw new TypeError('an alpha call cannot be a remix');
  const reference = call.mode === 'reference';
  const body: SerialisableObject = {
    model: reference ? alphaReferenceModelName(upstreamModel) : upstreamModel,
  };
  if (call.prompt !== '') body.prompt = call.prompt;
  const frames = [...call.images].sort((a, b) => frameOrder(a.role) - frameOrder(b.role));
  if (frames.length > 0) body.images = frames.map((image) => image.url);
  if (call.subjects.length > 0) {
    body.subjects = call.subjects.map(({ id, images, voiceId }) => ({
      id,
      images,
      ...(voiceId !== null ? { voice_id: voiceId } : {}),
    }));
  }
  body.duration = call.seconds;
  if (call.resolution !== null) body.resolution = call.resolution;
  if (call.aspectRatio !== null) body.aspect_ratio = call.aspectRatio;
  return { path: PATH_OF_MODE[call.mode], body: { ...body, ...call.extras } };
}

/** First frame before last; reference images keep the client's order (a stable sort). */
function frameOrder(role: string): number {
  return role === 'last_frame' ? 1 : 0;
}
