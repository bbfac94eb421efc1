import { randomUUID } from 'node:crypto';
import { errorMessageOf } from '@gateway/observability';
import { channelTypeDefinition } from '@gateway/providers';
import {
  isChannelType,
  parseChannelConnection,
  type ChannelConnection,
  type ChannelConnectionFields,
  type ChannelTypeDefinition,
} from '@gateway/providers-core';
import type { RedisConnection } from '@gateway/redis';
import { decryptChannelFields } from '../secret/channel-fields.decrypt';
import type { ChannelCandidate } from './channel-candidate';
import type { ChannelRow, ChannelRowSource } from './channel-row.source';
import { parseChannelModels } from './channel-models.parse';

/** Structurally a pino logger's `warn`. */
export interface CatalogLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ChannelCatalogOptions {
  /** Redis pub/sub channel announcing admin changes; see channelChangesChannel(). */
  channelName: string;
  /** Master keys by version, to decrypt channel secrets and secret settings. */
  keyring: ReadonlyMap<number, Buffer>;
  /** Reload from the database this often even without a message (a lost message heals here). */
  refreshIntervalMs: number;
  logger: CatalogLogger;
}

/** The conventional change channel under the configured Redis prefix. */
export function channelChangesChannel(redisPrefix: string): string {
  return `${redisPrefix}:routing:channel-changes`;
}

/**
 * The enabled channels, held in memory so that routing a request costs no query. Secrets and secret
 * settings are decrypted, and parsed into typed connections by their type's definition, once per
 * load. An admin change on any instance calls publishChange(); every instance
 * reloads on the message, and on a timer in case a message is lost.
 */
export class ChannelCatalog {
  private candidatesByModel = new Map<string, readonly ChannelCandidate[]>();
  private readonly instanceId = randomUUID();
  private refreshTimer: NodeJS.Timeout | undefined;
  private runningRefresh: Promise<void> | null = null;
  private queuedRefresh: Promise<void> | null = null;

  constructor(
    private readonly channelRows: ChannelRowSource,
    private readonly subscriber: RedisConnection,
    private readonly publisher: RedisConnection,
    private readonly options: ChannelCatalogOptions,
  ) {}

  /** Loads the channels, then follows changes until stop(). */
  async start(): Promise<void> {
    this.subscriber.on('message', this.onMessage);
    await this.subscriber.subscribe(this.options.channelName);
    // Listening only now: the connection's first `ready` is not a reconnection.
    this.subscriber.on('ready', this.onReconnect);
    await this.refresh();
    this.refreshTimer = setInterval(
      () => this.refreshInBackground('interval'),
      this.options.refreshIntervalMs,
    );
    this.refreshTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
    this.subscriber.off('message', this.onMessage);
    this.subscriber.off('ready', this.onReconnect);
    if (this.subscriber.status === 'ready') await this.subscriber.unsubscribe(this.options.channelName);
    await Promise.allSettled([this.runningRefresh, this.queuedRefresh]);
  }

  /**
   * Reloads from the database. A call during a running reload waits for one more reload that
   * starts after it, so a caller always sees changes committed before its call.
   */
  refresh(): Promise<void> {
    if (this.runningRefresh === null) {
      this.runningRefresh = this.load().finally(() => {
        this.runningRefresh = null;
      });
      return this.runningRefresh;
    }
    this.queuedRefresh ??= this.runningRefresh
      .catch(() => undefined)
      .then(() => {
        this.queuedRefresh = null;
        return this.refresh();
      });
    return this.queuedRefresh;
  }

  /** After an admin change: reload here and tell every other instance to reload. */
  async publishChange(): Promise<void> {
    await Promise.all([this.refresh(), this.publisher.publish(this.options.channelName, this.instanceId)]);
  }

  /** Enabled channels offering the model, in no particular order (see orderCandidates). */
  candidatesFor(model: string): ChannelCandidate[] {
    return [...(this.candidatesByModel.get(model) ?? [])];
  }

  /** Every model at least one enabled channel offers, sorted. */
  offeredModels(): string[] {
    return [...this.candidatesByModel.keys()].sort();
  }

  private async load(): Promise<void> {
    const channels = await this.channelRows.enabledChannels();
    const candidatesByModel = new Map<string, ChannelCandidate[]>();
    for (const channel of channels) {
      for (const { publicModel, candidate } of this.candidatesOf(channel)) {
        const group = candidatesByModel.get(publicModel) ?? [];
        group.push(candidate);
        candidatesByModel.set(publicModel, group);
      }
    }
    this.candidatesByModel = candidatesByModel;
  }

  /**
   * One candidate per model the channel offers, or none when the row is unusable. A known type with
   * no definition yet has nothing to call it with: its rows are passed over quietly, as designed.
   */
  private candidatesOf(channel: ChannelRow): { publicModel: string; candidate: ChannelCandidate }[] {
    const { type } = channel;
    if (!isChannelType(type)) {
      this.options.logger.warn({ channelId: channel.id, type }, 'channel skipped: unknown channel type');
      return [];
    }
    const connection = this.connectionOf(channel);
    if (connection === undefined) return [];
    return parseChannelModels(channel.models).map(({ model, upstreamModel }) => ({
      publicModel: model,
      candidate: Object.freeze({
        id: channel.id,
        name: channel.name,
        type,
        connection,
        upstreamModel,
        priority: channel.priority,
        weight: channel.weight,
      }),
    }));
  }

  private connectionOf(channel: ChannelRow): ChannelConnection | undefined {
    const definition = channelTypeDefinition(channel.type);
    if (!definition) return undefined;
    const fields = this.decryptedFieldsOf(definition, channel);
    if (fields === undefined) return undefined;
    const parsed = parseChannelConnection(definition, fields);
    if (parsed.ok) return Object.freeze(parsed.connection);
    // The message names the expected form or the setting at fault, never the secret.
    this.options.logger.warn(
      { channelId: channel.id, field: parsed.field, reason: parsed.message },
      'channel skipped: secret or settings do not fit its channel type',
    );
    return undefined;
  }

  private decryptedFieldsOf(
    definition: ChannelTypeDefinition,
    channel: ChannelRow,
  ): ChannelConnectionFields | undefined {
    try {
      return decryptChannelFields(definition, channel, this.options.keyring);
    } catch (error) {
      const reason = errorMessageOf(error);
      this.options.logger.warn(
        { channelId: channel.id, reason },
        'channel skipped: secret cannot be decrypted',
      );
      return undefined;
    }
  }

  private refreshInBackground(trigger: string): void {
    this.refresh().catch((error: unknown) => {
      const reason = errorMessageOf(error);
      this.options.logger.warn(
        { trigger, reason },
        'channel catalog refresh failed; keeping the previous channels',
      );
    });
  }

  private readonly onMessage = (channel: string, message: string): void => {
    // Our own announcement: publishChange() already reloaded.
    if (channel === this.options.channelName && message !== this.instanceId)
      this.refreshInBackground('message');
  };

  /** Changes announced while the subscriber was away are lost: reload rather than trust the cache. */
  private readonly onReconnect = (): void => this.refreshInBackground('reconnect');
}
