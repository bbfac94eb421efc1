import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { generateApiKey, KeyResolver } from '@gateway/auth';
import { CreateKeyDto, UpdateKeyDto, type CreatedKeyView, type KeyView } from '@gateway/contracts';
import type { PrismaClient } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import { GovernanceFigures } from '../../governance/governance-figures.service';
import { LOGGER, PRISMA } from '../../platform/infrastructure/tokens';
import { governanceDataOf } from '../shared/governance-columns.mapper';
import { newAdminId } from '../shared/admin-id.util';
import { parseAdminInput } from '../shared/admin-input.util';
import { missingRecordAs } from '../shared/prisma-error.util';
import { KeyListQueryDto } from './key-list-query.dto';
import { KEY_VIEW_COLUMNS, toCreatedKeyView, toKeyView } from './key-view.mapper';

/** Inference keys: only the prefix and the hash are stored; the whole key is shown once, at creation. */
@Injectable()
export class KeysService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly keyResolver: KeyResolver,
    private readonly figures: GovernanceFigures,
  ) {}

  async create(input: CreateKeyDto): Promise<CreatedKeyView> {
    const account = await this.prisma.account.findUnique({
      where: { id: input.accountId },
      select: { id: true },
    });
    if (!account)
      throw GatewayError.invalidRequest(`No account has the id "${input.accountId}".`, 'accountId');
    const { plaintext, prefix, hash } = generateApiKey();
    const row = await this.prisma.apiKey.create({
      data: {
        id: newAdminId('key'),
        accountId: input.accountId,
        name: input.name,
        prefix,
        hash,
        expiresAt: input.expiresAt === undefined ? null : new Date(input.expiresAt),
        allowedModels: input.allowedModels ?? [],
        allowedIps: input.allowedIps ?? [],
        ...governanceDataOf(input, null),
      },
      select: KEY_VIEW_COLUMNS,
    });
    return toCreatedKeyView(row, plaintext);
  }

  async list(query: unknown): Promise<KeyView[]> {
    const { accountId } = parseAdminInput(KeyListQueryDto, query);
    const rows = await this.prisma.apiKey.findMany({
      where: accountId === undefined ? {} : { accountId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: KEY_VIEW_COLUMNS,
    });
    return rows.map(toKeyView);
  }

  async get(id: string): Promise<KeyView> {
    const row = await this.prisma.apiKey.findUnique({ where: { id }, select: KEY_VIEW_COLUMNS });
    if (!row) throw keyNotFound(id);
    const current = await this.figures.of({ kind: 'key', ...row });
    return { ...toKeyView(row), current };
  }

  async update(id: string, input: UpdateKeyDto): Promise<KeyView> {
    const { expiresAt, limits, budget, ...plainFields } = input;
    const stored =
      limits === undefined || limits === null
        ? null
        : await this.prisma.apiKey.findUnique({ where: { id }, select: { limits: true } });
    const row = await this.prisma.apiKey
      .update({
        where: { id },
        data: {
          ...plainFields,
          ...governanceDataOf({ limits, budget }, stored?.limits ?? null),
          ...(expiresAt !== undefined ? { expiresAt: expiresAt && new Date(expiresAt) } : {}),
        },
        select: KEY_VIEW_COLUMNS,
      })
      .catch(missingRecordAs(() => keyNotFound(id)));
    await this.dropFromCaches(id);
    return toKeyView(row);
  }

  async remove(id: string): Promise<void> {
    await this.prisma.apiKey
      .delete({ where: { id }, select: { id: true } })
      .catch(missingRecordAs(() => keyNotFound(id)));
    await this.dropFromCaches(id);
  }

  /**
   * Every instance forgets the key, so a disabled or deleted key stops within about a second. The
   * change is committed either way; if the message cannot be sent, the cache lifetime bounds the delay.
   */
  private async dropFromCaches(id: string): Promise<void> {
    try {
      await this.keyResolver.invalidate(id);
    } catch (error) {
      this.logger.warn(
        { err: error, keyId: id },
        'key change saved but not announced; caches expire it shortly',
      );
    }
  }
}

function keyNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No key has the id "${id}".`);
}
