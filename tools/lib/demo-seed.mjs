// Seeds the demo through the gateway's own admin API: an account with credit, prices, two channels
// pointing at the simulators and a fresh key. Running it again reuses what exists and mints a new key.

const KAPPA_MODELS = [
  'kappa-2.0-flash',
  'kappa-3-pro-image-preview',
  'kappa-2.5-flash-image-preview',
  'kappa-3.1-flash-image-preview',
];

export const DEMO_PRICES = [
  {
    model: 'kappa-2.0-flash',
    inputPerMillion: '100000',
    outputPerMillion: '400000',
    defaultMaxOutputTokens: 8192,
  },
  { model: 'chat-fast', inputPerMillion: '150000', outputPerMillion: '600000', defaultMaxOutputTokens: 4096 },
  ...KAPPA_MODELS.slice(1).map((model) => ({
    model,
    inputPerMillion: '300000',
    outputPerMillion: '30000000',
    defaultMaxOutputTokens: 8192,
  })),
];

async function admin(baseUrl, adminToken, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function seedDemo({ gatewayUrl, adminToken, simulatorUrl }) {
  await admin(gatewayUrl, adminToken, 'PUT', '/admin/prices', { prices: DEMO_PRICES });
  const channels = await admin(gatewayUrl, adminToken, 'GET', '/admin/channels');
  const existing = new Map(
    (Array.isArray(channels) ? channels : (channels.data ?? [])).map((channel) => [channel.name, channel.id]),
  );
  const wanted = [
    {
      type: 'kappa',
      name: 'demo-kappa',
      baseUrl: simulatorUrl,
      secret: 'sim-kappa-key',
      models: KAPPA_MODELS.map((model) => ({ model })),
      priority: 10,
    },
    {
      type: 'compat',
      name: 'demo-compat',
      baseUrl: simulatorUrl,
      secret: 'sim-compat-key',
      // Also a lower-priority second channel for kappa-2.0-flash: failover has somewhere to go.
      models: [{ model: 'chat-fast' }, { model: 'kappa-2.0-flash', upstreamModel: 'chat-fast' }],
      priority: 0,
    },
  ];
  // A channel left by an earlier run is pointed at this run's simulator (its port may differ).
  for (const channel of wanted) {
    const id = existing.get(channel.name);
    if (id === undefined) await admin(gatewayUrl, adminToken, 'POST', '/admin/channels', channel);
    else {
      const update = { ...channel };
      delete update.type;
      await admin(gatewayUrl, adminToken, 'PATCH', `/admin/channels/${id}`, update);
    }
  }
  const account = await admin(gatewayUrl, adminToken, 'POST', '/admin/accounts', { name: 'demo' });
  await admin(gatewayUrl, adminToken, 'POST', `/admin/accounts/${account.id}/credits`, {
    amountMicros: '100000000',
    idempotencyKey: `demo-credit-${account.id}`,
    note: 'demo credit',
  });
  const key = await admin(gatewayUrl, adminToken, 'POST', '/admin/keys', {
    accountId: account.id,
    name: 'demo',
  });
  return { key: key.key, accountId: account.id };
}

export function demoCurl(gatewayUrl, key) {
  return [
    `curl -s ${gatewayUrl}/v1beta/models/kappa-2.0-flash:generateContent \\`,
    `  -H 'x-vendor-api-key: ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"contents":[{"role":"user","parts":[{"text":"Say hello"}]}]}'`,
  ].join('\n');
}
