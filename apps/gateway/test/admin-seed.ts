import { randomBytes } from 'node:crypto';

export interface SeededText {
  key: string;
  accountId: string;
}

/** The admin API of a gateway at `url` (another process): a call's JSON answer, or an error naming it. */
export async function adminRequest<T>(
  url: string,
  adminToken: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** What a text test needs, created through the admin API of a gateway at `url` (another process). */
export async function seedTextOverAdminApi(
  url: string,
  adminToken: string,
  simulatorUrl: string,
  creditMicros = 1_000_000_000n,
): Promise<SeededText> {
  const admin = <T>(method: string, path: string, body: unknown) =>
    adminRequest<T>(url, adminToken, method, path, body);
  await admin('PUT', '/admin/prices', {
    prices: ['kappa-2.0-flash', 'chat-fast'].map((model) => ({
      model,
      inputPerMillion: '1000000',
      outputPerMillion: '2000000',
      defaultMaxOutputTokens: 1000,
    })),
  });
  for (const [type, model] of [
    ['kappa', 'kappa-2.0-flash'],
    ['compat', 'chat-fast'],
  ]) {
    await admin('POST', '/admin/channels', {
      type,
      name: `${type}-${randomBytes(3).toString('hex')}`,
      baseUrl: simulatorUrl,
      secret: `sim-${type}-key`,
      models: [{ model }],
      priority: 0,
      weight: 1,
    });
  }
  const account = await admin<{ id: string }>('POST', '/admin/accounts', { name: 'process test' });
  await admin('POST', `/admin/accounts/${account.id}/credits`, {
    amountMicros: creditMicros.toString(),
    idempotencyKey: `credit-${account.id}`,
  });
  const { key } = await admin<{ key: string }>('POST', '/admin/keys', {
    accountId: account.id,
    name: 'process test key',
  });
  return { key, accountId: account.id };
}
