import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { CreateChannelDto, UpdateChannelDto, type ChannelView } from '@gateway/contracts';
import type { Channel, PrismaClient } from '@gateway/db';
import { CHANNEL_TYPES, isChannelType } from '@gateway/providers-core';
import { ChannelCatalog, decryptSecret } from '@gateway/routing';
import { GatewayError } from '../../errors/gateway-error';
import { CONFIG, LOGGER, PRISMA } from '../../infrastructure/tokens';
import { newAdminId } from '../shared/admin-id.util';
import { parseAdminInput } from '../shared/admin-input.util';
import { isUniqueViolation, missingRecordAs } from '../shared/prisma-error.util';
import { toSealedSecretColumns } from './channel-secret.writer';
import { assertFitsChannelType } from './channel-type-fit.check';
import { toChannelModelsColumn, toChannelSettingsColumn, toChannelView } from './channel-view.mapper';

/**
 * Channel rows: the secret is sealed on the way in and only ever leaves masked; secret and settings
 * must fit the channel type's definition.
 */
@Injectable()
export class ChannelsService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly catalog: ChannelCatalog,
  ) {}

  async create(body: unknown): Promise<ChannelView> {
    const input = parseAdminInput(CreateChannelDto, body);
    assertChannelType(input.type);
    assertFitsChannelType(input.type, input);
    const row = await this.saving(input.name, () =>
      this.prisma.channel.create({
        data: {
          id: newAdminId('ch'),
          type: input.type,
          name: input.name,
          baseUrl: input.baseUrl,
          ...toSealedSecretColumns(input.secret, this.config),
          models: toChannelModelsColumn(input.models),
          settings: toChannelSettingsColumn(input.settings),
          priority: input.priority,
          weight: input.weight,
          status: input.status,
        },
      }),
    );
    await this.announceChange();
    return toChannelView(row);
  }

  async list(): Promise<ChannelView[]> {
    const rows = await this.prisma.channel.findMany({ orderBy: [{ priority: 'desc' }, { name: 'asc' }] });
    return rows.map(toChannelView);
  }

  async get(id: string): Promise<ChannelView> {
    const row = await this.prisma.channel.findUnique({ where: { id } });
    if (!row) throw channelNotFound(id);
    return toChannelView(row);
  }

  async update(id: string, body: unknown): Promise<ChannelView> {
    const { secret, models, type, settings, ...plainFields } = parseAdminInput(UpdateChannelDto, body);
    if (type !== undefined) assertChannelType(type);
    if (type !== undefined || secret !== undefined || settings !== undefined) {
      await this.assertChangeFits(id, { type, secret, settings });
    }
    const row = await this.saving(plainFields.name, () =>
      this.prisma.channel.update({
        where: { id },
        data: {
          ...plainFields,
          ...(type !== undefined ? { type } : {}),
          ...(secret !== undefined ? toSealedSecretColumns(secret, this.config) : {}),
          ...(models !== undefined ? { models: toChannelModelsColumn(models) } : {}),
          ...(settings !== undefined ? { settings: toChannelSettingsColumn(settings) } : {}),
        },
      }),
    ).catch(missingRecordAs(() => channelNotFound(id)));
    await this.announceChange();
    return toChannelView(row);
  }

  async remove(id: string): Promise<void> {
    await this.prisma.channel.delete({ where: { id } }).catch(missingRecordAs(() => channelNotFound(id)));
    await this.announceChange();
  }

  /**
   * A change of type, secret or settings must leave a row that fits its type, so what it does not
   * change is read from the stored row (the stored secret decrypted for the check only).
   */
  private async assertChangeFits(
    id: string,
    change: { type?: string; secret?: string; settings?: Record<string, unknown> },
  ): Promise<void> {
    const current = await this.prisma.channel.findUnique({ where: { id } });
    if (!current) throw channelNotFound(id);
    assertFitsChannelType(change.type ?? current.type, {
      baseUrl: current.baseUrl,
      secret: change.secret ?? this.storedSecretOf(current),
      settings: change.settings ?? current.settings,
    });
  }

  private storedSecretOf(row: Channel): string {
    try {
      return decryptSecret(row.secretCiphertext, row.secretKeyVersion, this.config.masterKeys.keys);
    } catch {
      throw GatewayError.invalidRequest(
        'The stored secret can no longer be decrypted (its master key is gone); send a new secret with this change.',
        'secret',
      );
    }
  }

  /** Runs a write whose unique name may already be taken, answering that as a 400 naming `name`. */
  private async saving(name: string | undefined, write: () => Promise<Channel>): Promise<Channel> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new GatewayError('invalid_request', `A channel named "${name}" exists already.`, {
        param: 'name',
      });
    }
  }

  /**
   * Every instance reloads its catalog. The change is committed either way; if the announcement fails,
   * the instances pick it up at their next periodic refresh, so the request does not fail for it.
   */
  private async announceChange(): Promise<void> {
    try {
      await this.catalog.publishChange();
    } catch (error) {
      this.logger.warn(
        { err: error },
        'channel change saved but not announced; instances catch up on their next refresh',
      );
    }
  }
}

function assertChannelType(type: string): void {
  if (!isChannelType(type)) {
    throw GatewayError.invalidRequest(`type must be one of ${CHANNEL_TYPES.join(', ')}.`, 'type');
  }
}

function channelNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No channel has the id "${id}".`);
}
