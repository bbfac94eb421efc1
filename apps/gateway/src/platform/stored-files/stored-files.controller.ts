import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BINARY_BODY } from '../docs/binary-body.schema';
import { StoredFilesService, UnsatisfiableFileRange, type StoredFileAnswer } from './stored-files.service';

/**
 * The files the gateway stored itself, such as the images it answers with as URLs. No key: the id
 * carries 128 random bits, so a URL is as secret as a key, and a browser or a client library can
 * fetch it as any image link. The route is outside /v1, where every route needs a key.
 */
@ApiTags('Files')
@Controller('files')
export class StoredFilesController {
  constructor(private readonly files: StoredFilesService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'A stored file (an image answered as a URL), whole or one byte range',
    description: 'No key needed: the id is unguessable. Expired files answer 404.',
    security: [],
  })
  @ApiParam({ name: 'id', description: 'The id in the URL the gateway answered with.' })
  @ApiHeader({
    name: 'Range',
    required: false,
    description: 'One byte range: `bytes=0-99`, `bytes=100-` or `bytes=-100`.',
  })
  @ApiProduces('image/png', 'image/jpeg', 'image/webp')
  @ApiResponse({ status: 200, description: 'The whole file, with its content type.', schema: BINARY_BODY })
  @ApiResponse({ status: 206, description: 'The range asked for, with Content-Range.', schema: BINARY_BODY })
  @ApiResponse({ status: 404, description: 'Unknown or expired.' })
  @ApiResponse({ status: 416, description: 'The range starts past the end; Content-Range names the size.' })
  async read(
    @Param('id') id: string,
    @Headers('range') range: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    let answer: StoredFileAnswer;
    try {
      answer = await this.files.read(id, range);
    } catch (error) {
      if (error instanceof UnsatisfiableFileRange) reply.header('content-range', `bytes */${error.size}`);
      throw error;
    }
    await reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
}
