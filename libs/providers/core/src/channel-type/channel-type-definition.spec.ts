import { parseAccessKeyPair } from './channel-credentials.parse';
import { NoChannelSettings } from './channel-settings.parse';
import { defineChannelType, parseChannelConnection } from './channel-type-definition';

const signedType = defineChannelType({
  type: 'beta',
  parseCredentials: parseAccessKeyPair,
  settings: NoChannelSettings,
  capabilities: {},
});

describe('parseChannelConnection', () => {
  it('gives the connection with typed credentials and the parsed settings', () => {
    const parse = parseChannelConnection(signedType, {
      baseUrl: 'http://127.0.0.1:4010/beta',
      secret: 'AKLTexample0123|SecretPart4567',
      settings: {},
    });
    expect(parse).toEqual({
      ok: true,
      connection: {
        baseUrl: 'http://127.0.0.1:4010/beta',
        credentials: { accessKey: 'AKLTexample0123', secretKey: 'SecretPart4567' },
        settings: {},
      },
    });
  });

  it('names the secret field and the expected form, never the secret', () => {
    const parse = parseChannelConnection(signedType, {
      baseUrl: 'http://127.0.0.1:4010/beta',
      secret: 'sk-LoneKey0123456789',
      settings: {},
    });
    expect(parse).toEqual({ ok: false, field: 'secret', message: 'secret must be AccessKey|SecretKey' });
  });

  it('names the settings field and the setting at fault', () => {
    const parse = parseChannelConnection(signedType, {
      baseUrl: 'http://127.0.0.1:4010/beta',
      secret: 'AKLTexample0123|SecretPart4567',
      settings: { region: 'north' },
    });
    expect(parse).toEqual({
      ok: false,
      field: 'settings',
      message: 'settings.region is not a setting of this channel type',
    });
  });
});
