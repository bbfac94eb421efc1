import { HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IMAGE_UPLOAD_LIMITS,
  ImageEditRequestDto,
  ImageGenerationRequestDto,
  ImageResponseView,
} from '@gateway/contracts';
import { RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { DeclaredRoute } from '../../../platform/http/declared-route.decorator';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { AcceptsMultipart } from '../../../platform/http/multipart-body.parser';
import { readMultipartForm } from '../../../platform/http/multipart-form.reader';
import { toEditRequest } from './edit-form.mapper';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { ImageGenerationService } from './image-generation.service';
import { IMAGE_GENERATION_BODY, toGenerationRequest } from './image-request.mapper';

/**
 * The OpenAI-style image routes. Not the hot path: an ordinary controller, whose decorators declare
 * each route and its OpenAPI operation once. The generation pipeline answers (it writes the reply);
 * every error leaves through the exception filter in the OpenAI-style envelope.
 */
@InferenceRoutes({ path: 'v1/images', dialect: 'openai', tag: 'OpenAI-style' })
export class ImagesController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly images: ImageGenerationService,
  ) {}

  @DeclaredRoute({
    method: 'POST',
    path: 'generations',
    summary: 'Generate images; the result in the same response',
    description:
      'Family rules (sizes, presets, ratios, counts) are checked before anything is charged; warnings ' +
      'about fallbacks come back in `x-gateway-warning`. `url` answers are gateway URLs under /files.',
    body: IMAGE_GENERATION_BODY,
    answer: ImageResponseView,
  })
  generate(
    @RouteBody() body: DeclaredBody<ImageGenerationRequestDto>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { operation: 'generate' as const, read: () => toGenerationRequest(body) };
    return this.pipeline.serve(this.images, input, request, reply);
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
    return this.pipeline.serve(this.images, { operation: 'edit', read: readRequest }, request, reply);
  }
}
