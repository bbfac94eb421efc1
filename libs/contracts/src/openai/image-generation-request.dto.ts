import { ApiProperty } from '@nestjs/swagger';
import { combinePropertyDecorators, OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { ValidateRule } from '../validation/rule.decorator';
import { StringField } from '../validation/scalar-field.decorator';
import { checkList, checkString } from '../validation/value-checks.util';
import { ImageRequestFieldsDto } from './image-request-fields.dto';
import { IMAGE_REQUEST_LIMITS } from './image-values.constants';
import { nullableOneOf } from '../validation/nullable-one-of.schema';

/** Reference images: one string or a list, each Base64 (a `data:` URL or bare) or an http(s) URL. */
function checkReferenceImages(value: unknown): string | undefined {
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  return checkList(value, (item) => checkString(item, { nonEmpty: true }), {
    maxItems: IMAGE_REQUEST_LIMITS.referenceImages,
  });
}

function ReferenceImagesField(): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description:
        'Reference images: Base64 strings (`img-2`, `img-2-pro`, `eta-iota-*`, `zeta-4-2-image`) or URLs (`beta-*`).',
      required: false,
      ...nullableOneOf(
        { type: 'string' },
        { type: 'array', items: { type: 'string' }, maxItems: IMAGE_REQUEST_LIMITS.referenceImages },
      ),
    }),
    ValidateRule('image', checkReferenceImages),
  );
}

/** Body of `POST /v1/images/generations` (JSON). */
export class ImageGenerationRequestDto extends ImageRequestFieldsDto {
  @ReferenceImagesField()
  image?: string | string[] | null;

  @StringField({
    description: 'Aspect ratio (`16:9` …), for families that take one.',
    ...OPTIONAL_OR_NULL,
    maxLength: IMAGE_REQUEST_LIMITS.textLength,
  })
  ratio?: string | null;

  @StringField({
    description: 'Resolution tier (`1k`, `2k`, `4k`), for families that take one.',
    ...OPTIONAL_OR_NULL,
    maxLength: IMAGE_REQUEST_LIMITS.textLength,
  })
  resolution?: string | null;
}
