import type { SerialisableObject, VideoCall, VideoImageRole } from '@gateway/providers-core';
import { theta1xModelOf } from './theta-video-models';

/** The wire's `role` of each image role (§6.2). */
const IMAGE_ROLES: Readonly<Record<VideoImageRole, string>> = {
  first_frame: 'first_frame',
  last_frame: 'last_frame',
  reference: 'reference_image',
};

/** §6.2: the items go in the order text, images, videos, audios. */
const CLIP_ORDER = ['video', 'audio'] as const;

/**
 * What the create call sends for a channel's upstream model: a gateway 1.x name becomes its versioned
 * id, with the resolution of its suffix; any other name (a versioned id the channel maps to) is sent
 * as it is, at the planned resolution.
 */
export function thetaUpstreamTargetOf(
  upstreamModel: string,
  plannedResolution: string | null,
): { model: string; resolution: string | null } {
  const theta = theta1xModelOf(upstreamModel);
  return theta
    ? { model: theta.upstreamId, resolution: theta.resolution }
    : { model: upstreamModel, resolution: plannedResolution };
}

/**
 * The ordered `content[]` of a planned call (§6.2): the prompt, the images with their roles, then the
 * reference clips (videos before audios). Every generation builds it so; 2.0 adds clips and `asset://`
 * URLs, which pass as they are.
 */
export function thetaContentOf(call: VideoCall): SerialisableObject[] {
  const content: SerialisableObject[] = [];
  if (call.prompt !== '') content.push({ type: 'text', text: call.prompt });
  for (const image of call.images) {
    content.push({ type: 'image_url', image_url: { url: image.url }, role: IMAGE_ROLES[image.role] });
  }
  for (const type of CLIP_ORDER) {
    for (const clip of call.clips.filter((candidate) => candidate.type === type)) {
      const field = `${type}_url`;
      content.push({ type: field, [field]: { url: clip.url }, role: clip.role ?? `reference_${type}` });
    }
  }
  return content;
}

/**
 * The create body (§6.2) of a planned call: the model, `content[]`, the resolution, the ratio when one
 * was asked, the seconds as `duration`, and the family fields the rules let through as they are.
 */
export function toThetaCreateBody(call: VideoCall, upstreamModel: string): SerialisableObject {
  const target = thetaUpstreamTargetOf(upstreamModel, call.resolution);
  return {
    model: target.model,
    content: thetaContentOf(call),
    ...(target.resolution === null ? {} : { resolution: target.resolution }),
    ...(call.aspectRatio === null ? {} : { ratio: call.aspectRatio }),
    duration: call.seconds,
    ...call.extras,
  };
}
