import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { UsageQueryDto, UsageRow } from '@gateway/contracts';
import { AdminTokenGuard } from '../../auth/admin-token.guard';
import { UsageService } from './usage.service';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin/usage')
@UseGuards(AdminTokenGuard)
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({ summary: 'Requests, tokens and cost summed by key, model, channel or UTC day' })
  @ApiQuery({ type: UsageQueryDto })
  @ApiOkResponse({ type: UsageRow, isArray: true })
  summarise(@Query() query: unknown): Promise<UsageRow[]> {
    return this.usage.summarise(query);
  }
}
