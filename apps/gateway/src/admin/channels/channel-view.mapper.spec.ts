import { randomBytes } from 'node:crypto';
import type { Channel } from '@gateway/db';
import { toSealedSettingsColumn } from './channel-secret.writer';
import { toChannelModelsColumn, toChannelView } from './channel-view.mapper';

const SECRET_CIPHERTEXT = 'c2VhbGVkLXNlY3JldC1ieXRlcw==';

function channelRow(overrides: Partial<Channel> = {}): Channel {
  return {
    id: 'ch_0123456789abcdef01234567',
    type: 'kappa',
    name: 'primary',
    baseUrl: 'http://127.0.0.1:4010/kappa',
    secretCiphertext: SECRET_CIPHERTEXT,
    secretKeyVersion: 3,
    secretTail: 'wxyz',
    models: [{ model: 'kappa-2.0-flash' }, { model: 'kappa-pro', upstreamModel: 'kappa-pro-002' }],
    settings: {},
    priority: 5,
    weight: 2,
    pollsPerSecond: null,
    status: 'enabled',
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-01-03T00:00:00.000Z'),
    ...overrides,
  };
}

describe('toChannelView', () => {
  it('shows the secret masked and nothing of its ciphertext or key version', () => {
    const view = toChannelView(channelRow());
    expect(view.secretMasked).toBe('••••wxyz');
    const serialised = JSON.stringify(view);
    expect(serialised).not.toContain(SECRET_CIPHERTEXT);
    expect(view).not.toHaveProperty('secretCiphertext');
    expect(view).not.toHaveProperty('secretKeyVersion');
    expect(view).not.toHaveProperty('secretTail');
  });

  it('masks a short secret entirely (its tail is empty)', () => {
    expect(toChannelView(channelRow({ secretTail: '' })).secretMasked).toBe('••••');
  });

  it("masks the type's secret settings like the secret and shows the others", () => {
    const currentKey = randomBytes(32);
    const masterKeys = { currentVersion: 1, currentKey, keys: new Map([[1, currentKey]]) };
    const controlPlaneUrl = 'http://127.0.0.1:4010/eta-control';
    const settings = toSealedSettingsColumn(
      'eta',
      { controlPlaneUrl, controlPlaneKey: 'ak-1|sk-view-9z8y' },
      { masterKeys },
    );
    const view = toChannelView(channelRow({ type: 'eta', settings: settings as Channel['settings'] }));
    expect(view.settings).toEqual({ controlPlaneUrl, controlPlaneKey: '••••9z8y' });
  });

  it('shows nothing of a secret setting that is not sealed', () => {
    const settings = {
      controlPlaneUrl: 'http://127.0.0.1:4010/eta-control',
      controlPlaneKey: 'ak|sk-clear-1',
    };
    expect(toChannelView(channelRow({ type: 'eta', settings })).settings.controlPlaneKey).toBe('••••');
  });

  it('lists models with upstreamModel only where it differs, and dates in ISO 8601', () => {
    const view = toChannelView(channelRow());
    expect(view.models).toEqual([
      { model: 'kappa-2.0-flash' },
      { model: 'kappa-pro', upstreamModel: 'kappa-pro-002' },
    ]);
    expect(view.createdAt).toBe('2026-01-02T03:04:05.678Z');
  });
});

describe('toChannelModelsColumn', () => {
  it('writes plain objects without absent fields', () => {
    const column = toChannelModelsColumn([{ model: 'a' }, { model: 'b', upstreamModel: 'b-1' }]);
    expect(JSON.stringify(column)).toBe('[{"model":"a"},{"model":"b","upstreamModel":"b-1"}]');
  });
});
