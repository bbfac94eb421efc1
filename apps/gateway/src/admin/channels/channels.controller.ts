import { Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  ChannelHealthView,
  ChannelTestView,
  ChannelView,
  CreateChannelDto,
  TestChannelDto,
  UpdateChannelDto,
} from '@gateway/contracts';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { ChannelTestService } from './channel-test.service';
import { ChannelsService } from './channels.service';

@AdminController('channels')
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly tests: ChannelTestService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a channel; the secret is stored encrypted and never shown again' })
  @DeclaresBody(adminBody(CreateChannelDto))
  @ApiCreatedResponse({ type: ChannelView })
  create(@RouteBody() body: DeclaredBody<CreateChannelDto>): Promise<ChannelView> {
    return this.channels.create(body.fields());
  }

  @Get()
  @ApiOperation({ summary: 'Every channel, enabled or not, with its circuit state and recent error rate' })
  @ApiOkResponse({ type: ChannelHealthView, isArray: true })
  list(): Promise<ChannelHealthView[]> {
    return this.channels.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'One channel, with its circuit state and recent error rate' })
  @ApiOkResponse({ type: ChannelHealthView })
  get(@Param('id') id: string): Promise<ChannelHealthView> {
    return this.channels.get(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'One small real call through the channel (a 1-token generation); not billed, and the circuit is left as it is',
  })
  @DeclaresBody(adminBody(TestChannelDto, { optional: true }))
  @ApiOkResponse({ type: ChannelTestView })
  test(@Param('id') id: string, @RouteBody() body: DeclaredBody<TestChannelDto>): Promise<ChannelTestView> {
    return this.tests.test(id, body.fields());
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change any field of a channel; a new secret is encrypted and replaces the old one',
  })
  @DeclaresBody(adminBody(UpdateChannelDto))
  @ApiOkResponse({ type: ChannelView })
  update(@Param('id') id: string, @RouteBody() body: DeclaredBody<UpdateChannelDto>): Promise<ChannelView> {
    return this.channels.update(id, body.fields());
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a channel' })
  @ApiNoContentResponse({ description: 'Deleted; every instance stops routing to it.' })
  remove(@Param('id') id: string): Promise<void> {
    return this.channels.remove(id);
  }
}
