import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import {
  CreateChannelDto,
  UpdateChannelDto,
  type ChannelHealthView,
  type ChannelView,
} from '@gateway/contracts';
import type { Channel, Prisma, PrismaClient } from '@gateway/db';
import { CHANNEL_TYPES, isChannelType, isJsonObject, type JsonObject } from '@gateway/providers-core';
import { ChannelCatalog, decryptSecret, openSecretSettings } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { CONFIG, LOGGER, PRISMA } from '../../platform/infrastructure/tokens';
import { newAdminId } from '../shared/admin-id.util';
import { isUniqueViolation, missingRecordAs } from '../shared/prisma-error.util';
import { ChannelHealthReader, type ChannelHealth } from './channel-health.reader';
import { channelNotFound } from './channel-not-found.error';
import {
  toSealedSecretColumns,
  toSealedSettingsColumn,
  withKeptSecretSettings,
} from './channel-secret.writer';
import { assertFitsChannelType, settingsSchemaOf } from './channel-type-fit.check';
import { toChannelModelsColumn, toChannelView } from './channel-view.mapper';

/**
 * Channel rows: the secret and the type's secret settings are sealed on the way in and only ever
 * leave masked; secret and settings must fit the channel type's definition.
 */
@Injectable()
export class ChannelsService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly catalog: ChannelCatalog,
    private readonly health: ChannelHealthReader,
  ) {}

  async create(input: CreateChannelDto): Promise<ChannelView> {
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
          settings: toSealedSettingsColumn(input.type, input.settings, this.config),
          priority: input.priority,
          weight: input.weight,
          pollsPerSecond: input.pollsPerSecond ?? null,
          status: input.status,
        },
      }),
    );
    await this.announceChange();
    return toChannelView(row);
  }

  async list(): Promise<ChannelHealthView[]> {
    const rows = await this.prisma.channel.findMany({ orderBy: [{ priority: 'desc' }, { name: 'asc' }] });
    return this.withHealth(rows);
  }

  async get(id: string): Promise<ChannelHealthView> {
    const row = await this.prisma.channel.findUnique({ where: { id } });
    if (!row) throw channelNotFound(id);
    const [view] = await this.withHealth([row]);
    return view;
  }

  /** The rows' views with their circuit and recent errors, read for all of them at once. */
  private async withHealth(rows: readonly Channel[]): Promise<ChannelHealthView[]> {
    const health = await this.health.healthOf(rows.map((row) => row.id));
    return rows.map((row) => {
      const { circuit, recentErrors } = health.get(row.id) as ChannelHealth;
      return { ...toChannelView(row), circuit, recentErrors };
    });
  }

  async update(id: string, input: UpdateChannelDto): Promise<ChannelView> {
    const { secret, models, type, settings, ...plainFields } = input;
    if (type !== undefined) assertChannelType(type);
    const settingsColumn =
      type !== undefined || secret !== undefined || settings !== undefined
        ? await this.fittingSettingsColumn(id, { type, secret, settings })
        : undefined;
    const row = await this.saving(plainFields.name, () =>
      this.prisma.channel.update({
        where: { id },
        data: {
          ...plainFields,
          ...(type !== undefined ? { type } : {}),
          ...(secret !== undefined ? toSealedSecretColumns(secret, this.config) : {}),
          ...(models !== undefined ? { models: toChannelModelsColumn(models) } : {}),
          ...(settingsColumn !== undefined ? { settings: settingsColumn } : {}),
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
   * change is read from the stored row (decrypted for the check only); sent settings keep the stored
   * secret settings they omit. Answers the settings column to write, sealed anew under the current
   * master key and the (new) type's schema.
   */
  private async fittingSettingsColumn(
    id: string,
    change: { type?: string; secret?: string; settings?: JsonObject },
  ): Promise<Prisma.InputJsonObject> {
    const current = await this.prisma.channel.findUnique({ where: { id } });
    if (!current) throw channelNotFound(id);
    const type = change.type ?? current.type;
    const stored = () => this.storedSettingsOf(current);
    const settings =
      change.settings === undefined ? stored() : withKeptSecretSettings(type, change.settings, stored);
    assertFitsChannelType(type, {
      baseUrl: current.baseUrl,
      secret: change.secret ?? this.storedSecretOf(current),
      settings,
    });
    return toSealedSettingsColumn(type, settings, this.config);
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

  private storedSettingsOf(row: Channel): JsonObject {
    try {
      const settings = openSecretSettings(
        settingsSchemaOf(row.type),
        row.settings,
        this.config.masterKeys.keys,
      );
      return isJsonObject(settings) ? settings : {};
    } catch {
      throw GatewayError.invalidRequest(
        'The stored secret settings cannot be decrypted; send them again with this change.',
        'settings',
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
