import { Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import { CreateKeyDto, CreatedKeyView, KeyView, UpdateKeyDto } from '@gateway/contracts';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { KeyListQueryDto } from './key-list-query.dto';
import { KeysService } from './keys.service';

@AdminController('keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create an inference key; the whole key is in this answer only' })
  @DeclaresBody(adminBody(CreateKeyDto))
  @ApiCreatedResponse({ type: CreatedKeyView })
  create(@RouteBody() body: DeclaredBody<CreateKeyDto>): Promise<CreatedKeyView> {
    return this.keys.create(body.fields());
  }

  @Get()
  @ApiOperation({ summary: 'Keys, optionally of one account' })
  @ApiQuery({ type: KeyListQueryDto })
  @ApiOkResponse({ type: KeyView, isArray: true })
  list(@Query() query: unknown): Promise<KeyView[]> {
    return this.keys.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One key' })
  @ApiOkResponse({ type: KeyView })
  get(@Param('id') id: string): Promise<KeyView> {
    return this.keys.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename, disable, re-enable, change the expiry or the allowed models of a key' })
  @DeclaresBody(adminBody(UpdateKeyDto))
  @ApiOkResponse({ type: KeyView })
  update(@Param('id') id: string, @RouteBody() body: DeclaredBody<UpdateKeyDto>): Promise<KeyView> {
    return this.keys.update(id, body.fields());
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a key' })
  @ApiNoContentResponse({ description: 'Deleted; every instance refuses it within about a second.' })
  remove(@Param('id') id: string): Promise<void> {
    return this.keys.remove(id);
  }
}
