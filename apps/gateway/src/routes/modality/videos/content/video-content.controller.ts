import { Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { InferenceRoutes } from '../../../../platform/http/inference-routes.decorator';
import { BINARY_BODY } from '../../../../platform/docs/binary-body.schema';
import { gatewayState } from '../../../../platform/http/gateway-request';
import { relayOpenedContent } from '../../../../tasks/content/content-relay';
import { VideoContentService } from './video-content.service';
import { VIDEO_CONTENT_VARIANTS, videoContentVariantOf } from './video-content-variant';

/**
 * `GET /v1/videos/{task_id}/content`: the bytes of one of the caller's finished videos, streamed
 * through the gateway (the `video_url` of every video answer points here). Errors are the
 * OpenAI-style envelope.
 */
@InferenceRoutes({ path: 'v1/videos', dialect: 'openai', tag: 'OpenAI-style' })
export class VideoContentController {
  constructor(private readonly content: VideoContentService) {}

  @Get(':taskId/content')
  @ApiOperation({
    summary: 'Download a finished video, its thumbnail or its spritesheet, whole or one byte range',
    description:
      'Streamed from the upstream (its result URL, renewed once when it has expired, or its content ' +
      'endpoint). Only the account that created the task can read it.',
  })
  @ApiParam({ name: 'taskId', description: 'The id the create answer gave.' })
  @ApiQuery({ name: 'variant', required: false, enum: VIDEO_CONTENT_VARIANTS })
  @ApiHeader({
    name: 'Range',
    required: false,
    description: 'One byte range (`bytes=0-99`, `bytes=100-`, `bytes=-100`), passed to the upstream.',
  })
  @ApiProduces('video/mp4', 'image/webp', 'image/jpeg')
  @ApiResponse({
    status: 200,
    description: 'The whole content, with its type and length.',
    schema: BINARY_BODY,
  })
  @ApiResponse({ status: 206, description: 'The range asked for, with Content-Range.', schema: BINARY_BODY })
  @ApiResponse({ status: 400, description: 'An unknown variant.' })
  @ApiResponse({
    status: 404,
    description: 'No such video for this account, or a variant its upstream lacks.',
  })
  @ApiResponse({ status: 409, description: 'The video has not completed (yet).' })
  @ApiResponse({ status: 416, description: 'The range starts past the end; Content-Range names the size.' })
  @ApiResponse({ status: 502, description: 'The upstream pointed at an address the gateway does not fetch.' })
  download(
    @Param('taskId') taskId: string,
    @Query('variant') variant: unknown,
    @Headers('range') range: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const key = gatewayState(request).apiKey as ResolvedKey;
    const asked = { accountId: key.accountId, taskId, variant: videoContentVariantOf(variant), range };
    return relayOpenedContent(reply, (signal) => this.content.opened(asked, signal), asked.variant);
  }
}
