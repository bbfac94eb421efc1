import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signBetaRequest, type AdapterContext, type PlainKeyCredentials } from '@gateway/providers-core';
import {
  silentAdapterLogger,
  upstreamFailureOf,
  useRecordedUpstreams,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import type { EtaChannelSettings } from '../eta-channel.settings';
import { etaAssetAdapter } from './eta-asset.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const JSON_TYPE = { 'content-type': 'application/json' };
const NOW_MS = Date.UTC(2026, 10, 24, 14, 3, 0);
const action = (name: string) => `POST /?Action=${name}&Version=2024-01-01`;

describe('etaAssetAdapter (the asset control plane, upstreams.md §6.5)', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;

  const replay = async (
    route: string,
    name: string,
    status = 200,
  ): Promise<AdapterContext<PlainKeyCredentials, EtaChannelSettings>> => {
    upstream = await session.replay({ [route]: { status, headers: JSON_TYPE, body: fixture(name) } });
    return {
      channel: {
        baseUrl: 'http://127.0.0.1:1',
        credentials: { apiKey: 'eta-data-plane-key' },
        settings: { controlPlaneUrl: upstream.baseUrl, controlPlaneKey: 'ctl-ak|ctl-sk' },
      },
      http: session.http(),
      clock: { now: () => NOW_MS },
      logger: silentAdapterLogger,
    };
  };
  const sent = () => upstream.requests[0];
  const sentBody = () => JSON.parse(sent().body.toString('utf8')) as Record<string, unknown>;

  it('creates a group with the signed CreateAssetGroup action in the cn-beijing/eta scope', async () => {
    const context = await replay(action('CreateAssetGroup'), 'control-group-created.body');
    const created = await etaAssetAdapter.createGroup({ name: 'kites', description: 'red ones' }, context);
    expect(created).toEqual({ id: 'group-20261124140301-x1y2z' });
    expect(sentBody()).toEqual({
      Name: 'kites',
      Description: 'red ones',
      GroupType: 'AIGC',
      ProjectName: 'default',
    });
    const headers = sent().headers;
    expect(headers.authorization).toMatch(
      /^HMAC-SHA256 Credential=ctl-ak\/20261124\/cn-beijing\/eta\/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$/,
    );
    const expected = signBetaRequest({
      accessKey: 'ctl-ak',
      secretKey: 'ctl-sk',
      region: 'cn-beijing',
      service: 'eta',
      method: 'POST',
      url: `${upstream.baseUrl}/?Action=CreateAssetGroup&Version=2024-01-01`,
      body: sent().body,
      nowMs: NOW_MS,
    });
    expect(headers.authorization).toBe(expected.authorization);
    expect(headers['x-date']).toBe('20261124T140300Z');
    expect(headers['x-content-sha256']).toBe(expected['x-content-sha256']);
  });

  it('creates an asset of a kind in a group by the upstream ids', async () => {
    const context = await replay(action('CreateAsset'), 'control-asset-created.body');
    const created = await etaAssetAdapter.createAsset(
      { groupId: 'group-20261124140301-x1y2z', url: 'https://cdn.test/a.mp3', name: 'theme', kind: 'audio' },
      context,
    );
    expect(created).toEqual({ id: 'asset-20261124140302-d9646' });
    expect(sentBody()).toEqual({
      GroupId: 'group-20261124140301-x1y2z',
      URL: 'https://cdn.test/a.mp3',
      Name: 'theme',
      AssetType: 'Audio',
      ProjectName: 'default',
    });
  });

  it.each([
    ['control-asset-processing.body', { status: 'processing' }],
    ['control-asset-active.body', { status: 'active' }],
    [
      'control-asset-failed.body',
      {
        status: 'failed',
        failure: { code: 'InvalidImage.TooSmall', message: 'The image sides must be 300 to 6000 pixels.' },
      },
    ],
  ])('reads GetAsset %s', async (name, expected) => {
    const context = await replay(action('GetAsset'), name);
    expect(await etaAssetAdapter.getAsset('asset-20261124140302-d9646', context)).toEqual(expected);
    expect(sentBody()).toEqual({ Id: 'asset-20261124140302-d9646', ProjectName: 'default' });
  });

  it('updates and deletes by id, sending only the changed fields', async () => {
    let context = await replay(action('UpdateAssetGroup'), 'control-empty-result.body');
    await etaAssetAdapter.updateGroup('group-1', { description: 'blue ones' }, context);
    expect(sentBody()).toEqual({ Id: 'group-1', Description: 'blue ones', ProjectName: 'default' });
    context = await replay(action('DeleteAsset'), 'control-empty-result.body');
    await etaAssetAdapter.deleteAsset('asset-1', context);
    expect(sentBody()).toEqual({ Id: 'asset-1', ProjectName: 'default' });
  });

  it.each([
    ['control-signature-mismatch.body', 401, { kind: 'auth', upstreamCode: 'SignatureDoesNotMatch' }],
    ['control-not-found.body', 404, { kind: 'bad_request', upstreamCode: 'NotFound.Asset' }],
    ['control-internal.body', 500, { kind: 'overload', retryable: true, upstreamCode: 'InternalError' }],
    ['control-not-found.body', 200, { kind: 'bad_request', upstreamCode: 'NotFound.Asset' }],
  ])('throws the class of an error envelope (%s, HTTP %s)', async (name, status, failure) => {
    const context = await replay(action('GetAsset'), name, status);
    const error = await upstreamFailureOf(etaAssetAdapter.getAsset('asset-x', context));
    expect(error.failure).toMatchObject(failure);
  });

  it('serves assets only on a channel whose settings configure the control plane', () => {
    const channel = (settings: EtaChannelSettings) => ({
      baseUrl: 'x',
      credentials: { apiKey: 'k' },
      settings,
    });
    expect(etaAssetAdapter.servesAssets(channel({}))).toBe(false);
    expect(
      etaAssetAdapter.servesAssets(channel({ controlPlaneUrl: 'http://ctl.test', controlPlaneKey: 'a|b' })),
    ).toBe(true);
  });
});
