import {
  videoImageParamOf,
  type VideoCall,
  type VideoImage,
  type VideoMode,
  type VideoRequest,
} from '@gateway/providers-core';
import { alphaImageRefusal } from './alpha-image.rules';
import { alphaRefusal, type AlphaRefusal, type AlphaRuled } from './alpha-refusal';

/** §3.7: at most 3 images per subject and 7 reference images in all. */
export const ALPHA_MAX_IMAGES_PER_SUBJECT = 3;
export const ALPHA_MAX_REFERENCE_IMAGES = 7;
/** OpenAI style carries reference images in `images`, up to 3 (the issue; the interface's "commonly"). */
export const ALPHA_MAX_OPENAI_REFERENCE_IMAGES = 3;
const MAX_SUBJECT_ID_LENGTH = 64;

export interface AlphaInputs {
  mode: VideoMode;
  images: VideoCall['images'];
  subjects: VideoCall['subjects'];
}

/**
 * The mode the inputs select (§3.2) and the inputs checked: subjects or reference images make a
 * reference2video task (never both, never beside frames), a first frame an img2video task, a first
 * and a last frame a start-end2video task, and no image a text2video task.
 */
export function alphaInputsOf(request: VideoRequest): AlphaRuled<AlphaInputs> {
  if (request.remixOf !== undefined)
    return alphaRefusal('model', `${request.model} has no remix or extension`);
  if (request.clips.length > 0) {
    return alphaRefusal(
      'clips',
      `${request.model} takes no reference video or audio; send images or subjects`,
    );
  }
  const byRole = (role: VideoImage['role']) => request.images.filter((image) => image.role === role);
  const [firsts, lasts, references] = [byRole('first_frame'), byRole('last_frame'), byRole('reference')];
  const frames = [...firsts, ...lasts];
  if (request.subjects.length > 0 || references.length > 0) {
    if (frames.length > 0) {
      return alphaRefusal(
        videoImageParamOf(request.images, frames[0]),
        'first and last frames cannot be combined with reference images or subjects',
      );
    }
    return referenceInputsOf(request, references);
  }
  if (firsts.length > 1)
    return alphaRefusal(videoImageParamOf(request.images, firsts[1]), 'only one first frame is allowed');
  if (lasts.length > 1)
    return alphaRefusal(videoImageParamOf(request.images, lasts[1]), 'only one last frame is allowed');
  if (lasts.length === 1 && firsts.length === 0) {
    return alphaRefusal(videoImageParamOf(request.images, lasts[0]), 'a last frame needs a first frame');
  }
  const refusal = imagesRefusal(request, frames);
  if (refusal) return refusal;
  const images = frames.map(({ role, url }) => ({ role, url }));
  const mode: VideoMode = lasts.length === 1 ? 'first_last' : firsts.length === 1 ? 'first_frame' : 'text';
  return { ok: true, value: { mode, images, subjects: [] } };
}

function referenceInputsOf(request: VideoRequest, references: VideoImage[]): AlphaRuled<AlphaInputs> {
  if (request.subjects.length > 0 && references.length > 0) {
    return alphaRefusal(
      videoImageParamOf(request.images, references[0]),
      'send reference images or subjects, not both',
    );
  }
  if (request.style === 'openai' && references.length > ALPHA_MAX_OPENAI_REFERENCE_IMAGES) {
    return alphaRefusal(
      videoImageParamOf(request.images, references[0]),
      `at most ${ALPHA_MAX_OPENAI_REFERENCE_IMAGES} reference images in OpenAI style, not ${references.length}`,
    );
  }
  const shapeRefusal = subjectShapesRefusal(request);
  if (shapeRefusal) return shapeRefusal;
  const total = references.length + request.subjects.reduce((sum, subject) => sum + subject.images.length, 0);
  if (total > ALPHA_MAX_REFERENCE_IMAGES) {
    const param = references.length > 0 ? videoImageParamOf(request.images, references[0]) : 'subjects';
    return alphaRefusal(param, `at most ${ALPHA_MAX_REFERENCE_IMAGES} reference images in all, not ${total}`);
  }
  const refusal = imagesRefusal(request, references) ?? subjectImagesRefusal(request);
  if (refusal) return refusal;
  return {
    ok: true,
    value: {
      mode: 'reference',
      images: references.map(({ role, url }) => ({ role, url })),
      subjects: request.subjects.map(({ id, images, voiceId }) => ({
        id,
        images: [...images],
        voiceId: voiceId ?? null,
      })),
    },
  };
}

/** Ids (unique, referred to as `@<id>`), voices and image counts, checked as untrusted input. */
function subjectShapesRefusal(request: VideoRequest): AlphaRefusal | undefined {
  const seen = new Set<string>();
  for (const [index, subject] of request.subjects.entries()) {
    const param = `subjects[${index}]`;
    const { id, images, voiceId } = subject as { id: unknown; images: unknown; voiceId: unknown };
    if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_SUBJECT_ID_LENGTH) {
      return alphaRefusal(
        `${param}.id`,
        `${param}.id must be a non-empty string of at most ${MAX_SUBJECT_ID_LENGTH} characters`,
      );
    }
    if (seen.has(id)) return alphaRefusal(`${param}.id`, `${param}.id repeats the subject id ${id}`);
    seen.add(id);
    if (voiceId !== undefined && typeof voiceId !== 'string') {
      return alphaRefusal(`${param}.voice_id`, `${param}.voice_id must be a string`);
    }
    if (!Array.isArray(images) || images.length === 0 || images.length > ALPHA_MAX_IMAGES_PER_SUBJECT) {
      return alphaRefusal(
        `${param}.images`,
        `${param}.images must hold 1 to ${ALPHA_MAX_IMAGES_PER_SUBJECT} images`,
      );
    }
  }
  return undefined;
}

function subjectImagesRefusal(request: VideoRequest): AlphaRefusal | undefined {
  for (const [index, subject] of request.subjects.entries()) {
    for (const [imageIndex, image] of subject.images.entries()) {
      const param = `subjects[${index}].images[${imageIndex}]`;
      const refusal = alphaImageRefusal(image, param, request.byteStrings);
      if (refusal) return refusal;
    }
  }
  return undefined;
}

function imagesRefusal(request: VideoRequest, checked: VideoImage[]): AlphaRefusal | undefined {
  for (const image of checked) {
    const refusal = alphaImageRefusal(
      image.url,
      videoImageParamOf(request.images, image),
      request.byteStrings,
    );
    if (refusal) return refusal;
  }
  return undefined;
}
