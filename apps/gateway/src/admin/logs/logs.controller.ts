import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { LogPageView, LogsQueryDto } from '@gateway/contracts';
import { AdminController } from '../shared/admin-controller.decorator';
import { LogsService } from './logs.service';

@AdminController('logs')
export class LogsController {
  constructor(private readonly logs: LogsService) {}

  @Get()
  @ApiOperation({ summary: 'Request logs, newest first; pass nextCursor as cursor for the next page' })
  @ApiQuery({ type: LogsQueryDto })
  @ApiOkResponse({ type: LogPageView })
  page(@Query() query: unknown): Promise<LogPageView> {
    return this.logs.page(query);
  }
}
