import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IMAGE_UPLOAD_LIMITS,
  ImageEditRequestDto,
  ImageGenerationRequestDto,
  ImageResponseView,
} from '@gateway/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AcceptsMultipart } from '../http/multipart-body.parser';
import { readMultipartForm } from '../http/multipart-form.reader';
import { toEditRequest } from './edit-form.mapper';
import { ImageGenerationService } from './image-generation.service';
import { toGenerationRequest } from './image-request.mapper';

/**
 * The OpenAI-style image routes. Not the hot path: an ordinary controller, whose decorators declare
 * each route and its OpenAPI operation once. The service answers (the reply is written there); every
 * error leaves through the exception filter in the OpenAI-style envelope.
 */
@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1/images')
@UseGuards(ApiKeyGuard)
export class ImagesController {
  constructor(private readonly images: ImageGenerationService) {}

  @Post('generations')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Generate images; the result in the same response',
    description:
      'Family rules (sizes, presets, ratios, counts) are checked before anything is charged; warnings ' +
      'about fallbacks come back in `x-gateway-warning`. `url` answers are gateway URLs under /files.',
  })
  @ApiBody({ type: ImageGenerationRequestDto })
  @ApiOkResponse({ type: ImageResponseView })
  generate(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.images.handle('generate', () => toGenerationRequest(body), request, reply);
  }

  @Post('edits')
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary:
      'Edit images: `image` (or repeated `image[]`) files, an optional `mask`, the fields as text parts',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ImageEditRequestDto })
  @ApiOkResponse({ type: ImageResponseView })
  edit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const readRequest = async () => toEditRequest(await readMultipartForm(request, IMAGE_UPLOAD_LIMITS));
    return this.images.handle('edit', readRequest, request, reply);
  }
}
