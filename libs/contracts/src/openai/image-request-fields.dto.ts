import { OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { BooleanField, EnumField, IntegerField, StringField } from '../validation/scalar-field.decorator';
import {
  IMAGE_REQUEST_LIMITS,
  IMAGE_RESPONSE_FORMATS,
  type ImageResponseFormatValue,
} from './image-values.constants';

const TEXT = { ...OPTIONAL_OR_NULL, maxLength: IMAGE_REQUEST_LIMITS.textLength };

/**
 * The fields the image generation and edit requests share (gateway interface, "Image generation
 * request"). Which sizes, qualities and counts a model accepts is its family's rule, checked after
 * this; unknown fields are ignored.
 */
export class ImageRequestFieldsDto {
  @StringField({
    description: 'Model name; required.',
    nonEmpty: true,
    maxLength: IMAGE_REQUEST_LIMITS.textLength,
    example: 'draw-3',
  })
  model: string;

  @StringField({
    description:
      'What to draw; whether an empty prompt is refused is up to the upstream. NUL and unpaired surrogate characters are refused, as on /bt (which keeps its prompts as sent).',
    maxLength: IMAGE_REQUEST_LIMITS.promptLength,
    storable: true,
    example: 'A lighthouse at dawn',
  })
  prompt: string;

  @IntegerField({
    description: 'Number of images; omitted or 0 means 1. Above what the family allows: 400.',
    ...OPTIONAL_OR_NULL,
    min: 0,
    max: IMAGE_REQUEST_LIMITS.images,
  })
  n?: number | null;

  @StringField({
    description: 'Size (`1024x1024`), preset (`16:9`, `16:9(4K)`) or family tier, as the model offers.',
    ...TEXT,
  })
  size?: string | null;

  @StringField({ description: 'Quality (`standard`, `hd`, `low`, `high`, `auto` …).', ...TEXT })
  quality?: string | null;

  @EnumField(IMAGE_RESPONSE_FORMATS, {
    description: 'url (default: a gateway URL) or b64_json / base64 (Base64 image data).',
    ...OPTIONAL_OR_NULL,
  })
  response_format?: ImageResponseFormatValue | null;

  @StringField({ description: 'Style, passed to channels whose wire has it.', ...TEXT })
  style?: string | null;

  @StringField({ description: 'Background, passed to channels whose wire has it.', ...TEXT })
  background?: string | null;

  @BooleanField({
    description: '`false` disables the watermark where the wire has one; omitted keeps the channel default.',
    ...OPTIONAL_OR_NULL,
  })
  watermark?: boolean | null;
}
