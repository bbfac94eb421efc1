import { HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { CharacterCreationService, downloadedCharacterOf } from './character-creation.service';
import { CHARACTER_BODY } from './character-request';
import type { CharacterRequestDto } from './character-request.dto';
import { CharacterView } from './character.view';

/** The delta family's character route (interface spec, "Other routes"); errors are the OpenAI-style envelope. */
@InferenceRoutes({ path: 'delta/v1/characters', dialect: 'openai', tag: 'delta' })
export class CharactersController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly characters: CharacterCreationService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a character from a stretch of a clip, for delta video prompts',
    description:
      'The gateway downloads the clip (SSRF-checked, size-capped, must be a video) and sends it to a ' +
      'channel of the model whose wire creates characters. A wire that takes the whole clip drops the ' +
      'window and says so in `x-gateway-warning`. Charged the `perCall` price of `delta-character` ' +
      'when the operator sets one; free otherwise.',
  })
  @DeclaresBody(CHARACTER_BODY)
  @ApiOkResponse({
    description: '`{id, name, created_at}`: the upstream character (`char_…`), created_at in Unix seconds.',
    type: CharacterView,
  })
  create(
    @RouteBody() body: DeclaredBody<CharacterRequestDto>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = downloadedCharacterOf(body, this.characters.fetcher);
    return this.pipeline.serve(this.characters, input, request, reply);
  }
}
