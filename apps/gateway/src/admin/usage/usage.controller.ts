import { Readable } from 'node:stream';
import { Get, Query, StreamableFile } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { UsageQueryDto, UsageRow } from '@gateway/contracts';
import { AdminController } from '../shared/admin-controller.decorator';
import { UsageService } from './usage.service';

@AdminController('usage')
@ApiExtraModels(UsageRow)
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    summary:
      'Requests, errors, tokens, images, media seconds and cost over a window, by any of day or hour, account, key, model, channel',
  })
  @ApiQuery({ type: UsageQueryDto })
  @ApiOkResponse({
    description: 'The rows; with format=csv, the same rows as CSV with a header line.',
    content: {
      'application/json': { schema: { type: 'array', items: { $ref: getSchemaPath(UsageRow) } } },
      'text/csv': {
        schema: {
          type: 'string',
          example: 'model,requests,errors,inputTokens,outputTokens,images,mediaSeconds,costMicros',
        },
      },
    },
  })
  async summarise(@Query() query: unknown): Promise<UsageRow[] | StreamableFile> {
    const rows = await this.usage.summarise(query);
    return rows instanceof Readable ? new StreamableFile(rows, { type: 'text/csv; charset=utf-8' }) : rows;
  }
}
