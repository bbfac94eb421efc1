import { ApiProperty } from '@nestjs/swagger';
import { ImageRequestFieldsDto } from './image-request-fields.dto';
import { IMAGE_REQUEST_LIMITS, IMAGE_UPLOAD_LIMITS } from './image-values.constants';

/**
 * Body of `POST /v1/images/edits` (multipart/form-data): the text parts are the shared fields, read
 * from the form and validated as this DTO; the files are documented here and read by the form reader,
 * which checks their count, size and type (their bytes, not the type the client claims).
 */
export class ImageEditRequestDto extends ImageRequestFieldsDto {
  @ApiProperty({
    description: `The image(s) to edit: one file as \`image\`, or repeated \`image[]\` (up to ${IMAGE_REQUEST_LIMITS.referenceImages}); PNG, JPEG or WebP, each at most ${IMAGE_UPLOAD_LIMITS.fileBytes / 1024 / 1024} MiB.`,
    type: 'array',
    items: { type: 'string', format: 'binary' },
  })
  image?: unknown;

  @ApiProperty({
    description: 'Where the image may change (its transparent pixels); a PNG of the image’s size.',
    type: 'string',
    format: 'binary',
    required: false,
  })
  mask?: unknown;
}
