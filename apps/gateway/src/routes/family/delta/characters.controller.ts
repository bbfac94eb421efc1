import { Body, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { CharacterCreationService, downloadedCharacterOf } from './character-creation.service';
import { CHARACTER_WINDOW_SECONDS, DEFAULT_CHARACTER_MODEL } from './character-request';
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
  @ApiBody({
    schema: {
      type: 'object',
      required: ['character_url', 'character_timestamps'],
      properties: {
        model: { type: 'string', default: DEFAULT_CHARACTER_MODEL, description: 'A delta model.' },
        name: { type: 'string', default: 'character', maxLength: 80 },
        character_url: { type: 'string', format: 'uri', description: 'http(s) URL of the clip.' },
        character_timestamps: {
          description:
            `The window in seconds, ${CHARACTER_WINDOW_SECONDS.min} to ${CHARACTER_WINDOW_SECONDS.max} s ` +
            'long: "start,end" or [start, end].',
          oneOf: [
            { type: 'string', example: '1.5,4' },
            { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
          ],
        },
      },
    },
  })
  @ApiOkResponse({
    description: '`{id, name, created_at}`: the upstream character (`char_…`), created_at in Unix seconds.',
    type: CharacterView,
  })
  create(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const input = downloadedCharacterOf(body, this.characters.fetcher);
    return this.pipeline.serve(this.characters, input, request, reply);
  }
}
