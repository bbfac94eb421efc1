import type { VideoCall, VideoPlan, VideoRequest } from '../capability/video-adapter';

/**
 * A video request as a gateway route hands it to a family's rules: the fields given, in the OpenAI
 * style unless they say otherwise, with no images, clips, subjects, price dimensions or extras.
 */
export function videoRequestOf(fields: Partial<VideoRequest> & Pick<VideoRequest, 'model'>): VideoRequest {
  return { style: 'openai', images: [], clips: [], subjects: [], dimensions: {}, extras: {}, ...fields };
}

/** The plan of a request the rules accept; a refusal fails the test, naming its field and reason. */
export function acceptedVideoPlan(plan: VideoPlan): Extract<VideoPlan, { ok: true }> {
  if (!plan.ok) throw new Error(`refused: ${plan.param}: ${plan.message}`);
  return plan;
}

/** The refusal of a request the rules refuse; an accepted plan fails the test. */
export function refusedVideoPlan(plan: VideoPlan): Extract<VideoPlan, { ok: false }> {
  if (plan.ok) throw new Error('expected a refusal');
  return plan;
}

/**
 * A planned text-to-video call of a family, with the fields given: no inputs, metadata, extras or
 * remix unless they say otherwise.
 */
export function videoCallOf(
  fields: Pick<VideoCall, 'family' | 'prompt' | 'seconds' | 'resolution' | 'size'> & Partial<VideoCall>,
): VideoCall {
  return {
    kind: 'video',
    mode: 'text',
    aspectRatio: null,
    images: [],
    clips: [],
    subjects: [],
    metadata: null,
    extras: {},
    remixOf: null,
    ...fields,
  };
}
