import type { Channel } from '@gateway/db';
import type { GatewayLogger } from '@gateway/observability';
import { channelTypeDefinition } from '@gateway/providers';
import { parseChannelConnection, type Clock, type UpstreamHttpClient } from '@gateway/providers-core';
import { decryptChannelFields } from '@gateway/routing';
import type { ChannelConnector } from './prisma-task-channel.resolver';

export interface RegistryChannelConnectorDependencies {
  /** Master keys by version, to decrypt channel secrets and secret settings. */
  keyring: ReadonlyMap<number, Buffer>;
  http: UpstreamHttpClient;
  clock: Clock;
  logger: GatewayLogger;
}

/**
 * A task worker's ChannelConnector: decrypts the row's secret and secret settings and parses them by
 * the type's definition in the provider registry, as the gateway's channel catalog does. A worker
 * reads the row at every step, so it parses at every step too; a row that no longer fits its type
 * fails the step with a message that names the expected form, never the secret.
 */
export function createRegistryChannelConnector(deps: RegistryChannelConnectorDependencies): ChannelConnector {
  return async (channel: Channel) => {
    const definition = channelTypeDefinition(channel.type);
    if (!definition) throw new Error(`channel type ${channel.type} has no definition`);
    const parsed = parseChannelConnection(
      definition,
      decryptChannelFields(definition, channel, deps.keyring),
    );
    if (!parsed.ok) throw new Error(`channel ${channel.id} does not fit its type: ${parsed.message}`);
    return {
      channel: parsed.connection,
      http: deps.http,
      clock: deps.clock,
      logger: {
        warn: (message, fields) => deps.logger.warn({ ...fields, channelId: channel.id }, message),
        debug: (message, fields) => deps.logger.debug({ ...fields, channelId: channel.id }, message),
      },
    };
  };
}
