import { ApiProperty } from '@nestjs/swagger';
import { combinePropertyDecorators } from '../validation/field.decorator';
import { ValidateRule } from '../validation/rule.decorator';
import { checkInteger, checkString, isJsonObject, problemAt } from '../validation/value-checks.util';
import { VIDEO_REQUEST_LIMITS } from './video-values.constants';
import { nullableOneOf } from '../validation/nullable-one-of.schema';

const WHOLE_SECONDS = /^\d{1,6}$/;

/**
 * A duration as the video styles send it: whole seconds, as a string (`"8"`, the OpenAI-style wire
 * and every multipart form) or a number (`8`, the unified style).
 */
export function checkVideoSeconds(value: unknown): string | undefined {
  const seconds = typeof value === 'string' && WHOLE_SECONDS.test(value) ? Number(value) : value;
  if (typeof seconds === 'string') return 'must be a whole number of seconds';
  return checkInteger(seconds, { min: 1, max: VIDEO_REQUEST_LIMITS.maxSeconds })?.replace(
    'must be an integer',
    'must be a whole number of seconds',
  );
}

export function VideoSecondsField(description: string): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description,
      required: false,
      ...nullableOneOf(
        { type: 'string', pattern: WHOLE_SECONDS.source },
        { type: 'integer', minimum: 1, maximum: VIDEO_REQUEST_LIMITS.maxSeconds },
      ),
    }),
    ValidateRule('videoSeconds', (value) =>
      value === undefined || value === null ? undefined : checkVideoSeconds(value),
    ),
  );
}

/**
 * `input_reference` as JSON: an image URL or `data:` URI, or the OpenAI-style reference object
 * `{image_url}` (`{file_id}` is described, and refused by the gateway, which keeps no files).
 */
function checkInputReference(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return checkString(value, { nonEmpty: true });
  if (!isJsonObject(value)) return 'must be a string or an object with image_url';
  const { image_url: imageUrl, file_id: fileId } = value;
  if (imageUrl === undefined && fileId === undefined) return 'must have image_url';
  if (imageUrl !== undefined) return problemAt('.image_url', checkString(imageUrl, { nonEmpty: true }));
  return problemAt('.file_id', checkString(fileId, { nonEmpty: true }));
}

export function InputReferenceField(): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description:
        'Reference image. Multipart: a file (repeatable, PNG, JPEG or WebP). JSON: an http(s) URL or a ' +
        '`data:image/…;base64,` URI, or `{image_url}`. One image is the first frame, two are the first and ' +
        'last frames, more are references, unless the family decides otherwise.',
      required: false,
      // anyOf, not oneOf: a URL and a file are both strings, told apart by the body's content type.
      anyOf: [
        { type: 'string', nullable: true },
        { type: 'object', properties: { image_url: { type: 'string' } } },
        { type: 'string', format: 'binary' },
      ],
    }),
    ValidateRule('inputReference', checkInputReference),
  );
}
