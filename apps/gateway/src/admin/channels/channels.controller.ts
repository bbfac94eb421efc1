import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ChannelView, CreateChannelDto, UpdateChannelDto } from '@gateway/contracts';
import { AdminTokenGuard } from '../../auth/admin-token.guard';
import { ChannelsService } from './channels.service';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin/channels')
@UseGuards(AdminTokenGuard)
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a channel; the secret is stored encrypted and never shown again' })
  @ApiBody({ type: CreateChannelDto })
  @ApiCreatedResponse({ type: ChannelView })
  create(@Body() body: unknown): Promise<ChannelView> {
    return this.channels.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'Every channel, enabled or not' })
  @ApiOkResponse({ type: ChannelView, isArray: true })
  list(): Promise<ChannelView[]> {
    return this.channels.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'One channel' })
  @ApiOkResponse({ type: ChannelView })
  get(@Param('id') id: string): Promise<ChannelView> {
    return this.channels.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change any field of a channel; a new secret is encrypted and replaces the old one',
  })
  @ApiBody({ type: UpdateChannelDto })
  @ApiOkResponse({ type: ChannelView })
  update(@Param('id') id: string, @Body() body: unknown): Promise<ChannelView> {
    return this.channels.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a channel' })
  @ApiNoContentResponse({ description: 'Deleted; every instance stops routing to it.' })
  remove(@Param('id') id: string): Promise<void> {
    return this.channels.remove(id);
  }
}
