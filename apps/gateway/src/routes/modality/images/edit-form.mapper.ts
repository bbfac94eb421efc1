import { IMAGE_REQUEST_LIMITS, ImageEditRequestDto } from '@gateway/contracts';
import type { ImageInput, ImageRequest } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { declaredBodyOf, type BodyDeclaration } from '../../../platform/http/declared-body';
import type { MultipartForm } from '../../../platform/http/multipart-form.reader';
import { toImageRequest, uploadedImage, validImageBody } from './image-request.mapper';

const IMAGE_FIELDS: ReadonlySet<string> = new Set(['image', 'image[]']);
const MASK_FIELD = 'mask';
const WHOLE_NUMBER = /^\d+$/;

/**
 * The edit route's text fields, declared as the generation route's body is (the DTO documented on the
 * route, each field at fault named). Not through RouteBody: the form is multipart only, and its files
 * are streamed under their limits inside the generation pipeline, where a refusal is logged like any
 * other; a parameter decorator would have to read the whole form before the pipeline starts.
 */
export const IMAGE_EDIT_BODY: BodyDeclaration<ImageEditRequestDto> = {
  dto: ImageEditRequestDto,
  validate: validImageBody,
};

/**
 * The request of an edit form (`POST /v1/images/edits`): text parts validated as ImageEditRequestDto
 * (a form sends every value as text, so `n` and `watermark` are read as a number and a boolean first;
 * what does not read as one is left for the DTO to refuse), the images to edit from `image` or
 * repeated `image[]`, and the optional `mask`.
 */
export function toEditRequest(form: MultipartForm): ImageRequest {
  const fields = declaredBodyOf(textFieldsOf(form), IMAGE_EDIT_BODY).fields();
  const images: ImageInput[] = [];
  let mask: ImageInput | undefined;
  for (const file of form.files) {
    if (file.field === MASK_FIELD) {
      if (mask) throw GatewayError.invalidRequest('Only one mask may be sent.', MASK_FIELD);
      mask = uploadedImage(file.bytes, MASK_FIELD);
    } else if (IMAGE_FIELDS.has(file.field)) {
      images.push(uploadedImage(file.bytes, `image[${images.length}]`));
    } else {
      throw GatewayError.invalidRequest(`Unexpected file in form field '${file.field}'.`, file.field);
    }
  }
  if (images.length === 0)
    throw GatewayError.invalidRequest('image is required: the image to edit.', 'image');
  if (images.length > IMAGE_REQUEST_LIMITS.referenceImages) {
    throw GatewayError.invalidRequest(
      `At most ${IMAGE_REQUEST_LIMITS.referenceImages} images may be edited at once.`,
      'image',
    );
  }
  return toImageRequest(fields, images, mask);
}

/** Built with Object.fromEntries, so a part named `__proto__` is a field like any other, never a prototype. */
function textFieldsOf(form: MultipartForm): Record<string, unknown> {
  const entries: Array<[string, unknown]> = [];
  for (const [name, values] of form.fields) {
    if (values.length > 1) throw GatewayError.invalidRequest(`The form field '${name}' is sent twice.`, name);
    entries.push([name, readFormValue(name, values[0])]);
  }
  return Object.fromEntries(entries);
}

function readFormValue(name: string, value: string): unknown {
  if (name === 'n' && WHOLE_NUMBER.test(value)) return Number(value);
  if (name === 'watermark' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
