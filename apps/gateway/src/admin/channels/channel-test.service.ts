import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { TestChannelDto, type ChannelTestView } from '@gateway/contracts';
import type { Channel, PrismaClient } from '@gateway/db';
import { channelTypeDefinition, textAdapterFor } from '@gateway/providers';
import {
  CAPABILITY_NAMES,
  parseChannelConnection,
  systemClock,
  type AdapterContext,
  type ChannelTypeDefinition,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import { decryptChannelFields, parseChannelModels } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { CONFIG, LOGGER, PRISMA, UPSTREAM_HTTP } from '../../platform/infrastructure/tokens';
import { channelNotFound } from './channel-not-found.error';
import { isTextTestable, pickTestModel } from './channel-test-call.util';
import { runTextTest } from './channel-text-test';

/**
 * One small real call through a channel, enabled or not, for an operator checking it: a 1-token
 * generation where the type has text. Other types are skipped: their adapters have no call that is
 * free (no status query of a made-up task, no models list), and a submission would create billable
 * work upstream.
 *
 * Nothing is billed: no hold, no ledger entry, no request-log row (the test would otherwise count in
 * the channel's own error rate). The circuit breaker is not told either way: a failing test must not
 * refuse live traffic, and a passing one must not close an open circuit behind the one-probe protocol.
 */
@Injectable()
export class ChannelTestService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(UPSTREAM_HTTP) private readonly http: UpstreamHttpClient,
    private readonly prices: PriceBook,
  ) {}

  async test(id: string, input: TestChannelDto): Promise<ChannelTestView> {
    const row = await this.prisma.channel.findUnique({ where: { id } });
    if (!row) throw channelNotFound(id);
    const definition = channelTypeDefinition(row.type);
    const adapter = textAdapterFor(row.type);
    if (!definition || !adapter) return skippedWithoutText(row.type, definition);
    const testable = (model: string) => isTextTestable(model, this.prices.priceFor(model));
    const model = pickTestModel(parseChannelModels(row.models), input.model, testable);
    if (input.model !== undefined) assertTestableModel(input.model, model !== undefined, testable);
    if (!model) {
      return {
        ok: null,
        capability: 'text',
        skipped: 'The channel offers no text model; a test would make an image or a video.',
      };
    }
    const { context, secret } = this.contextFor(row, definition);
    return runTextTest(adapter, model, context, (message) => redactSecret(message, secret));
  }

  /** The adapter context, from the row decrypted here (the catalog holds enabled channels only). */
  private contextFor(
    row: Channel,
    definition: ChannelTypeDefinition,
  ): { context: Omit<AdapterContext, 'signal'>; secret: string } {
    let fields;
    try {
      fields = decryptChannelFields(definition, row, this.config.masterKeys.keys);
    } catch {
      throw GatewayError.invalidRequest(
        'The stored secret can no longer be decrypted (its master key is gone); set a new secret first.',
        'secret',
      );
    }
    const parsed = parseChannelConnection(definition, fields);
    if (!parsed.ok)
      throw GatewayError.invalidRequest(`Channel type ${row.type}: ${parsed.message}.`, parsed.field);
    const logger = this.logger;
    return {
      secret: fields.secret,
      context: {
        channel: parsed.connection,
        http: this.http,
        clock: systemClock,
        logger: {
          warn: (message, extra) => logger.warn({ ...extra, channelId: row.id, channelTest: true }, message),
          debug: (message, extra) =>
            logger.debug({ ...extra, channelId: row.id, channelTest: true }, message),
        },
        headersTimeoutMs: this.config.upstreamHeadersTimeoutMs,
      },
    };
  }
}

function assertTestableModel(model: string, offered: boolean, testable: (model: string) => boolean): void {
  if (!offered)
    throw GatewayError.invalidRequest(`model "${model}" is not offered by this channel.`, 'model');
  if (!testable(model)) {
    throw GatewayError.invalidRequest(
      `model "${model}" is not a text model; a test makes a 1-token text call only.`,
      'model',
    );
  }
}

function skippedWithoutText(type: string, definition: ChannelTypeDefinition | undefined): ChannelTestView {
  if (!definition) {
    return {
      ok: null,
      capability: 'none',
      skipped: `Channel type ${type} has no definition yet; nothing can call it.`,
    };
  }
  const capabilities = CAPABILITY_NAMES.filter((name) => definition.capabilities[name] !== undefined);
  return {
    ok: null,
    capability: capabilities[0] ?? 'none',
    skipped:
      `Channel type ${type} has no text capability (it has ${capabilities.join(', ')}); its adapters offer ` +
      'no free call (a status query or a models list), and a submission would create billable work.',
  };
}

/** Upstream messages may quote the key they refused; the secret (and each part of a composite one) never leaves. */
function redactSecret(message: string, secret: string): string {
  const parts = [secret, ...secret.split('|')].filter((part) => part.length >= 4);
  return parts.reduce((text, part) => text.split(part).join('••••'), message);
}
