// Seeds the demo through the gateway's own admin API: an account with credit, prices, one channel per
// family pointing at the simulators and a fresh key. Running it again reuses what exists and mints a new key.

const KAPPA_IMAGE_MODELS = [
  'kappa-3-pro-image-preview',
  'kappa-2.5-flash-image-preview',
  'kappa-3.1-flash-image-preview',
];
const KAPPA_MODELS = ['kappa-2.0-flash', ...KAPPA_IMAGE_MODELS];
const COMPAT_IMAGE_MODELS = ['img-1', 'img-2', 'img-2-pro', 'draw-2', 'draw-3', 'zeta-4-2-image'];
const ETA_IMAGE_MODELS = ['eta-iota-4-0-250828', 'eta-iota-4-5-251128', 'eta-iota-5-0-260128'];
const BETA_IMAGE_MODELS = ['beta-4.0', 'beta-4.5'];

// Micros per image. Every table has a `default`, since a tier it does not price is a 400; the other
// keys show each family's tiers: compat `<size>`, `<quality>` and `<size>/<quality>`, kappa and beta
// resolution tiers, eta the pixel size sent.
const COMPAT_PER_IMAGE = { default: '40000', '1024x1024': '40000', hd: '80000', '1792x1024/hd': '120000' };
const KAPPA_PER_IMAGE = { default: '39000', '1K': '39000', '2K': '134000', '4K': '240000' };
const ETA_PER_IMAGE = { default: '30000', '2048x2048': '30000', '4096x4096': '60000' };
const BETA_PER_IMAGE = { default: '40000', '1k': '20000', '2k': '40000', '4k': '80000' };

export const DEMO_PRICES = [
  {
    model: 'kappa-2.0-flash',
    inputPerMillion: '100000',
    outputPerMillion: '400000',
    defaultMaxOutputTokens: 8192,
  },
  { model: 'chat-fast', inputPerMillion: '150000', outputPerMillion: '600000', defaultMaxOutputTokens: 4096 },
  // The kappa image models answer generateContent too (priced by tokens) and /v1/images (per image).
  ...KAPPA_IMAGE_MODELS.map((model) => ({
    model,
    inputPerMillion: '300000',
    outputPerMillion: '30000000',
    defaultMaxOutputTokens: 8192,
    perImage: KAPPA_PER_IMAGE,
  })),
  ...COMPAT_IMAGE_MODELS.map((model) => ({ model, perImage: COMPAT_PER_IMAGE })),
  ...ETA_IMAGE_MODELS.map((model) => ({ model, perImage: ETA_PER_IMAGE })),
  ...BETA_IMAGE_MODELS.map((model) => ({ model, perImage: BETA_PER_IMAGE })),
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
      models: [
        { model: 'chat-fast' },
        { model: 'kappa-2.0-flash', upstreamModel: 'chat-fast' },
        ...COMPAT_IMAGE_MODELS.map((model) => ({ model })),
      ],
      priority: 0,
    },
    {
      type: 'eta',
      name: 'demo-eta',
      baseUrl: simulatorUrl,
      secret: 'sim-eta-key',
      models: ETA_IMAGE_MODELS.map((model) => ({ model })),
      priority: 0,
    },
    {
      // A signed channel (`AccessKey|SecretKey`); an `sk-` secret would call the relay instead.
      type: 'beta',
      name: 'demo-beta',
      baseUrl: simulatorUrl,
      secret: 'sim-beta-ak|sim-beta-sk',
      models: BETA_IMAGE_MODELS.map((model) => ({ model })),
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

/** The curls quickstart prints: a native text generation and an image generation answered with a URL. */
export function demoCurl(gatewayUrl, key) {
  return [
    `curl -s ${gatewayUrl}/v1beta/models/kappa-2.0-flash:generateContent \\`,
    `  -H 'x-vendor-api-key: ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"contents":[{"role":"user","parts":[{"text":"Say hello"}]}]}'`,
    '',
    `curl -s ${gatewayUrl}/v1/images/generations \\`,
    `  -H 'authorization: Bearer ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"model":"draw-2","prompt":"A lighthouse at dawn","size":"512x512","response_format":"url"}'`,
  ].join('\n');
}
