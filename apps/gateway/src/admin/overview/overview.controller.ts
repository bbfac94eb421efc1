import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { OverviewQueryDto, OverviewView } from '@gateway/contracts';
import { AdminController } from '../shared/admin-controller.decorator';
import { OverviewService } from './overview.service';

@AdminController('overview')
export class OverviewController {
  constructor(private readonly overviews: OverviewService) {}

  @Get()
  @ApiOperation({
    summary:
      'Requests, errors, spend and p50/p95 latency per minute or hour: overall, per model, per channel',
  })
  @ApiQuery({ type: OverviewQueryDto })
  @ApiOkResponse({ type: OverviewView })
  overview(@Query() query: unknown): Promise<OverviewView> {
    return this.overviews.overview(query);
  }
}
