import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { VIDEO_UPLOAD_LIMITS, VideoObjectView } from '@gateway/contracts';
import { ApiKeyGuard } from '../../../../platform/auth/api-key.guard';
import { GatewayError } from '@gateway/errors';
import { warningHeader } from '../../../../pipeline/warning-header';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../../../platform/http/declared-body';
import { AcceptsMultipart } from '../../../../platform/http/multipart-body.parser';
import { CONFIG } from '../../../../platform/infrastructure/tokens';
import { GenerationPipeline } from '../../../../pipeline/generation-pipeline';
import { publicBaseOf } from '../../../../platform/stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../../../../tasks/idempotency-key.header';
import { callerKeyOf } from '../../../../tasks/task-submission.route';
import {
  CharacterCreationService,
  uploadedCharacterOf,
} from '../../../family/delta/character-creation.service';
import { UPLOADED_CHARACTER_BODY } from '../../../family/delta/character-request';
import type { UploadedCharacterRequestDto } from '../../../family/delta/character-request.dto';
import { CharacterView } from '../../../family/delta/character.view';
import { VideoCharacterStore } from '../../../family/delta/video-character.store';
import { OwnedVideoTasks } from '../owned-video-tasks.service';
import { toVideoObject } from '../video-object';
import { toRemixVideoRequest } from '../video-request.mapper';
import { VideoTaskService } from '../video-task.service';
import { uploadedCharacterReader } from './uploaded-character.input';
import { videoEditRefusal } from './video-edit.refusal';
import {
  toVideoExtensionRequest,
  VIDEO_EXTENSION_BODY,
  type VideoExtensionRequestDto,
} from './video-extension.request';
import { readVideoSdkBody } from './video-sdk-body.reader';

/** A reference and a few text fields: no file is taken (an uploaded clip is refused after reading). */
const REFERENCE_BODY_LIMITS = { ...VIDEO_UPLOAD_LIMITS, files: 1, fields: 16 };
const EXTENSIONS_ROUTE = '/v1/videos/extensions';
const CHARACTERS_ROUTE = '/v1/videos/characters';

/**
 * The official SDK's newer video calls (`videos.extend`, `videos.edit`, `videos.createCharacter`,
 * `videos.getCharacter`), served where a family's wire can do them: an extension is a remix of a
 * completed video on the channel that made it; characters are the delta family's; no wire edits, so an
 * edit is a 400 naming what can continue a video instead. Errors are the OpenAI-style envelope.
 */
@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1/videos')
@UseGuards(ApiKeyGuard)
export class VideoSdkCallsController {
  constructor(
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    private readonly characters: CharacterCreationService,
    private readonly characterStore: VideoCharacterStore,
    private readonly pipeline: GenerationPipeline,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('extensions')
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary: 'Extend a completed video of yours (`videos.extend`)',
    description:
      '`{prompt, seconds, video: {id}}`, JSON or multipart (`video[id]`). The remix of that video on the ' +
      'channel that made it, for families whose wire has remix or extension (`delta-2`, ' +
      '`epsilon_3_1-extend` …); others, and an uploaded clip: 400 naming those that can.',
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @DeclaresBody(VIDEO_EXTENSION_BODY)
  @ApiOkResponse({ type: VideoObjectView })
  async extend(
    @RouteBody() body: DeclaredBody<VideoExtensionRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VideoObjectView> {
    const key = callerKeyOf(request);
    const extension = toVideoExtensionRequest(
      await readVideoSdkBody(request, body.raw, REFERENCE_BODY_LIMITS),
    );
    const source = await this.owned.find(key, extension.videoId);
    if (source.status !== 'completed' || source.upstreamHandle === null) {
      throw GatewayError.invalidRequest(
        `Only a completed video can be extended; this one is ${source.status}.`,
        'video',
      );
    }
    const read = () => {
      const remix = toRemixVideoRequest(extension.remixBody);
      return { modelName: remix.modelName ?? source.model, fields: remix.fields };
    };
    const creation = this.videos.creation(
      { route: EXTENSIONS_ROUTE, read, idempotencyKey: idempotencyKeyOf(request), remixOf: source },
      key,
    );
    const { task, warnings } = await this.pipeline.createTask(creation, request, reply);
    reply.headers(warningHeader(warnings));
    return toVideoObject(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  @Post('edits')
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary: 'Edit a video (`videos.edit`): no family served here can; 400 naming what can extend instead',
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiOkResponse({
    type: VideoObjectView,
    description:
      'What a family with edits would answer; no family served here has them, so today every edit is a 400.',
  })
  async edit(@Req() request: FastifyRequest): Promise<never> {
    // No body is declared: every edit is refused. It is read (and bounded) first all the same, so
    // that the connection stays usable after the refusal.
    await readVideoSdkBody(request, request.body, REFERENCE_BODY_LIMITS);
    throw videoEditRefusal();
  }

  @Post('characters')
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary: 'Create a character from an uploaded clip (`videos.createCharacter`), on a delta channel',
    description:
      'Multipart `name` and `video` (the clip), optionally `model` (a delta model, `delta-2` by ' +
      'default). Priced like `POST /delta/v1/characters`.',
  })
  @ApiConsumes('multipart/form-data')
  @DeclaresBody(UPLOADED_CHARACTER_BODY)
  @ApiOkResponse({ type: CharacterView })
  async createCharacter(
    @RouteBody() body: DeclaredBody<UploadedCharacterRequestDto>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = uploadedCharacterOf(CHARACTERS_ROUTE, await uploadedCharacterReader(request, body.raw));
    return this.pipeline.serve(this.characters, input, request, reply);
  }

  @Get('characters/:character_id')
  @ApiOperation({ summary: 'One of your characters (`videos.getCharacter`)' })
  @ApiParam({ name: 'character_id' })
  @ApiOkResponse({ type: CharacterView })
  async getCharacter(
    @Param('character_id') characterId: string,
    @Req() request: FastifyRequest,
  ): Promise<CharacterView> {
    const character = await this.characterStore.findOwned(callerKeyOf(request).accountId, characterId);
    if (!character) {
      throw new GatewayError('not_found', 'No character of yours has this id.', { param: 'character_id' });
    }
    return character;
  }
}
