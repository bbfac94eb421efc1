import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { LogPageView, LogsQueryDto } from '@gateway/contracts';
import { AdminTokenGuard } from '../../auth/admin-token.guard';
import { LogsService } from './logs.service';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin/logs')
@UseGuards(AdminTokenGuard)
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
