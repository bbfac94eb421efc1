import type { BetaSubmitTaskDto } from '@gateway/contracts';
import { betaVideoReqKeyEntryOf, betaVideoSecondsOf, type BetaVideoMode } from '@gateway/dialects';
import { isJsonObject, type SerialisableObject, type VideoImage } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { decodeBase64 } from '@gateway/images';
import { declaredBodyOf, type DeclaredBody } from '../../../platform/http/declared-body';
import { uploadedImageUrl, videoImageUrlOf } from '../../modality/videos/video-image-input';
import type { VideoRequestDraft } from '../../modality/videos/video-request.mapper';
import { BETA_SUBMIT_BODY } from './beta-action.bodies';

/** The image count each video mode takes (upstreams.md §4.3: the mode follows the image count). */
const IMAGES_OF_MODE: Readonly<Record<BetaVideoMode, number>> = { text: 0, first_frame: 1, first_last: 2 };
/** Fields this reader turns into the request; any other is the rules' to warn about. */
const READ_FIELDS: ReadonlySet<string> = new Set([
  'req_key',
  'prompt',
  'image_urls',
  'binary_data_base64',
  'frames',
  'aspect_ratio',
  'seed',
]);
/**
 * Where a refusal of the platform's request names a field the `/bt` body writes otherwise (the beta
 * rules read `/bt` as the family's own style, whose names are the unified ones).
 */
const BT_FIELD_OF_PARAM: Readonly<Record<string, string>> = {
  duration: 'frames',
  'metadata.seed': 'seed',
  'metadata.output_config.resolution': 'req_key',
};

/** Whether the body's `req_key` runs a beta video model (§4.3), so that the video path takes it. */
export function isBetaVideoSubmission(body: unknown): boolean {
  const reqKey = isJsonObject(body) ? body['req_key'] : undefined;
  return typeof reqKey === 'string' && betaVideoReqKeyEntryOf(reqKey) !== undefined;
}

/**
 * A `CVSync2AsyncSubmitTask` body whose `req_key` is a video key (§4.3), read into the platform's
 * request for the beta rules (style `official`): the key gives the model, the mode and the resolution
 * (which the planned call carries, so the adapter sends the same key); the images (`image_urls`, or
 * bare `binary_data_base64` kept as `data:` URIs) must number what the mode takes, first frame then
 * last; `frames` (`24 × seconds + 1`) gives the seconds; `aspect_ratio` and `seed` as sent. Fields
 * of the image wire (`size`, `scale` …) are passed as extras, which the rules name in a warning.
 * `body` as the route declared it, or as sent (then validated by the same declaration). Throws the
 * client's 400.
 */
export function toBetaVideoDraft(body: DeclaredBody<BetaSubmitTaskDto> | unknown): VideoRequestDraft {
  const declared = declaredBodyOf(body, BETA_SUBMIT_BODY);
  const fields = declared.fields();
  const entry = betaVideoReqKeyEntryOf(fields.req_key);
  if (!entry) throw GatewayError.invalidRequest(`req_key ${fields.req_key} is no video key.`, 'req_key');
  if (fields.image_urls !== undefined && fields.binary_data_base64 !== undefined) {
    throw GatewayError.invalidRequest(
      'image_urls and binary_data_base64 cannot be sent together.',
      'image_urls',
    );
  }
  const given = (fields.image_urls ?? fields.binary_data_base64 ?? []).length;
  const wanted = IMAGES_OF_MODE[entry.mode];
  if (given !== wanted) {
    throw GatewayError.invalidRequest(
      `req_key ${fields.req_key} takes ${wanted} image${wanted === 1 ? '' : 's'} (image_urls or binary_data_base64), not ${given}.`,
      fields.binary_data_base64 !== undefined ? 'binary_data_base64' : 'image_urls',
    );
  }
  const extras = Object.fromEntries(
    Object.entries(declared.raw as Record<string, unknown>).filter(([name]) => !READ_FIELDS.has(name)),
  ) as SerialisableObject;
  return {
    modelName: entry.model,
    fields: {
      style: 'official',
      ...(fields.prompt === undefined ? {} : { prompt: fields.prompt }),
      ...(fields.frames === undefined ? {} : { seconds: secondsOf(fields.frames) }),
      resolution: entry.resolution.toUpperCase(),
      ...(fields.aspect_ratio === undefined ? {} : { aspectRatio: fields.aspect_ratio }),
      images: imagesOf(fields),
      clips: [],
      subjects: [],
      ...(fields.seed === undefined ? {} : { metadata: { seed: fields.seed } }),
      extras,
    },
  };
}

/** A refusal of the planned request, naming the field as the `/bt` body wrote it. */
export function inBetaVideoTerms(error: unknown): unknown {
  if (!(error instanceof GatewayError) || error.param === undefined) return error;
  if (!Object.hasOwn(BT_FIELD_OF_PARAM, error.param)) return error;
  const param = BT_FIELD_OF_PARAM[error.param];
  const message = param === 'frames' ? `${error.message} (frames is 24 × seconds + 1)` : error.message;
  return new GatewayError(error.code, message, { ...error.options, param });
}

function secondsOf(frames: number): number {
  const seconds = betaVideoSecondsOf(frames);
  if (seconds === undefined) {
    throw GatewayError.invalidRequest(
      `frames must be 24 × seconds + 1 (121 for 5 seconds, 241 for 10), not ${frames}.`,
      'frames',
    );
  }
  return seconds;
}

/** One image is the first frame, two the first and the last. */
function imagesOf(fields: BetaSubmitTaskDto): VideoImage[] {
  const roleAt = (index: number): VideoImage['role'] => (index === 0 ? 'first_frame' : 'last_frame');
  if (fields.binary_data_base64 !== undefined) {
    return fields.binary_data_base64.map((text, index) => {
      const param = `binary_data_base64[${index}]`;
      const bytes = decodeBase64(text);
      if (!bytes) throw GatewayError.invalidRequest(`${param} is not Base64.`, param);
      return { role: roleAt(index), url: uploadedImageUrl(bytes, param), source: 'binary_data_base64' };
    });
  }
  return (fields.image_urls ?? []).map((url, index) => ({
    role: roleAt(index),
    url: videoImageUrlOf(url, `image_urls[${index}]`),
    source: 'image_urls',
  }));
}
