import { randomBytes } from 'node:crypto';
import { adminRequest } from '../admin-seed';

/** The models the cluster test sends: one per kind of traffic. */
export const CLUSTER_MODELS = {
  native: 'kappa-2.0-flash',
  chat: 'chat-fast',
  video: 'delta-2',
  image: 'img-1',
} as const;

export interface ClusterSeed {
  key: string;
  accountId: string;
}

/** Prices, a kappa and a compat channel on the simulators, an account with credit and a key, over the admin API. */
export async function seedClusterTraffic(
  adminUrl: string,
  adminToken: string,
  simulatorUrl: string,
): Promise<ClusterSeed> {
  const admin = <T>(method: string, path: string, body: unknown) =>
    adminRequest<T>(adminUrl, adminToken, method, path, body);
  const tokenPrice = {
    inputPerMillion: '1000000',
    outputPerMillion: '2000000',
    defaultMaxOutputTokens: 1000,
  };
  await admin('PUT', '/admin/prices', {
    prices: [
      { model: CLUSTER_MODELS.native, ...tokenPrice },
      { model: CLUSTER_MODELS.chat, ...tokenPrice },
      { model: CLUSTER_MODELS.video, perCall: '1000', perVideoSecond: { default: '5000' } },
      { model: CLUSTER_MODELS.image, perImage: { default: '40000' } },
    ],
  });
  const channel = (type: string, secret: string, models: string[]) =>
    admin('POST', '/admin/channels', {
      type,
      name: `${type}-${randomBytes(3).toString('hex')}`,
      baseUrl: simulatorUrl,
      secret,
      models: models.map((model) => ({ model })),
      priority: 0,
      weight: 1,
    });
  await channel('kappa', 'sim-kappa-key', [CLUSTER_MODELS.native]);
  await channel('compat', 'sim-compat-key', [
    CLUSTER_MODELS.chat,
    CLUSTER_MODELS.video,
    CLUSTER_MODELS.image,
  ]);
  const account = await admin<{ id: string }>('POST', '/admin/accounts', { name: 'cluster test' });
  await admin('POST', `/admin/accounts/${account.id}/credits`, {
    amountMicros: '100000000000',
    idempotencyKey: `credit-${account.id}`,
  });
  const { key } = await admin<{ key: string }>('POST', '/admin/keys', {
    accountId: account.id,
    name: 'cluster test key',
  });
  return { key, accountId: account.id };
}

/** Another key of the account, limited to `requestsPerMinute` (the governance limits, kept in Redis). */
export async function createLimitedKey(
  adminUrl: string,
  adminToken: string,
  accountId: string,
  requestsPerMinute: number,
): Promise<string> {
  const { key } = await adminRequest<{ key: string }>(adminUrl, adminToken, 'POST', '/admin/keys', {
    accountId,
    name: 'limited cluster key',
    limits: { requestsPerMinute },
  });
  return key;
}
