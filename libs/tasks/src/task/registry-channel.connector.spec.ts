import { randomBytes } from 'node:crypto';
import type { Channel } from '@gateway/db';
import type { GatewayLogger } from '@gateway/observability';
import { channelTypeDefinition } from '@gateway/providers';
import { systemClock, type UpstreamHttpClient } from '@gateway/providers-core';
import { encryptSecret, sealSecretSettings } from '@gateway/routing';
import { createRegistryChannelConnector } from './registry-channel.connector';

const MASTER_KEY = randomBytes(32);
const http: UpstreamHttpClient = {
  request: async () => {
    throw new Error('no call is made while connecting');
  },
};
const connect = createRegistryChannelConnector({
  keyring: new Map([[2, MASTER_KEY]]),
  http,
  clock: systemClock,
  logger: { warn: () => undefined, debug: () => undefined } as unknown as GatewayLogger,
});

function channelRow(type: string, secret: string, settings: Channel['settings'] = {}): Channel {
  const sealed = encryptSecret(secret, { key: MASTER_KEY, version: 2 });
  return {
    id: 'ch_1',
    type,
    name: 'one',
    baseUrl: 'http://127.0.0.1:4010/compat',
    secretCiphertext: sealed.ciphertext,
    secretKeyVersion: sealed.version,
    secretTail: sealed.tail,
    models: [],
    settings,
    priority: 0,
    weight: 1,
    pollsPerSecond: null,
    status: 'enabled',
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the connection to be refused');
}

describe('createRegistryChannelConnector', () => {
  it("decrypts the row's secret and parses it, with its settings, by the type's definition", async () => {
    const context = await connect(channelRow('compat', 'sk-worker-0123456789'));
    expect(context.channel).toEqual({
      baseUrl: 'http://127.0.0.1:4010/compat',
      credentials: { apiKey: 'sk-worker-0123456789' },
      settings: {},
    });
    expect(context.http).toBe(http);
  });

  it("decrypts the type's secret settings before its settings parser sees them", async () => {
    const controlPlane = {
      controlPlaneUrl: 'http://127.0.0.1:4010/eta-control',
      controlPlaneKey: 'ak-7|sk-worker-42',
    };
    const etaSettings = channelTypeDefinition('eta')?.settings;
    if (!etaSettings) throw new Error('eta has no definition');
    const sealed = sealSecretSettings(etaSettings, controlPlane, {
      key: MASTER_KEY,
      version: 2,
    }) as Channel['settings'];

    const context = await connect(channelRow('eta', 'sk-eta-0123', sealed));
    expect(context.channel.settings).toEqual(controlPlane);
    const refusal = await refusalOf(connect(channelRow('eta', 'sk-eta-0123', controlPlane)));
    expect(refusal).toBe(
      'channel secret cannot be decrypted: settings.controlPlaneKey is not stored encrypted; send it again',
    );
  });

  it('refuses a row whose secret does not fit its type, naming the form and never the secret', async () => {
    const message = await refusalOf(connect(channelRow('kappa', 'AccessKey0123|SecretKey9876')));
    expect(message).toBe(
      'channel ch_1 does not fit its type: secret must be a single API key (no spaces, line breaks or "|")',
    );
    expect(message).not.toContain('SecretKey9876');
  });

  it('refuses a row whose settings do not fit its type', async () => {
    const message = await refusalOf(connect(channelRow('compat', 'sk-worker-0123', { region: 'north' })));
    expect(message).toContain('settings.region is not a setting of this channel type');
  });

  it('refuses a type that has no definition', async () => {
    expect(await refusalOf(connect(channelRow('unregistered', 'sk-worker-0123')))).toBe(
      'channel type unregistered has no definition',
    );
  });
});
