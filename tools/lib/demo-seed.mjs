// Seeds the demo through the gateway's own admin API: an account with credit, prices, one channel per
// family pointing at the simulators and a fresh key. Running it again updates the channels it made
// (PATCH, so a new simulator port is picked up), replaces the prices and mints a new account and key.

const KAPPA_IMAGE_MODELS = [
  'kappa-3-pro-image-preview',
  'kappa-2.5-flash-image-preview',
  'kappa-3.1-flash-image-preview',
];
const KAPPA_MODELS = ['kappa-2.0-flash', ...KAPPA_IMAGE_MODELS];
const COMPAT_IMAGE_MODELS = ['img-1', 'img-2', 'img-2-pro', 'draw-2', 'draw-3', 'zeta-4-2-image'];
const ETA_IMAGE_MODELS = ['eta-iota-4-0-250828', 'eta-iota-4-5-251128', 'eta-iota-5-0-260128'];
const BETA_IMAGE_MODELS = ['beta-4.0', 'beta-4.5'];

// Video families, by the channel type that serves them (upstreams.md §11). `nu-*` and `xi-*` are open
// prefixes: the demo offers one model of each.
const COMPAT_VIDEO_MODELS = [
  'delta-2',
  'delta-2-pro',
  'epsilon_3_1',
  'epsilon_3_1-fast',
  'epsilon_3_1-extend',
  'zeta-video-3',
  'zeta-video-3-pro',
  'zeta-video-3-max',
  'nu-1',
  'xi-1',
];
const ALPHA_VIDEO_MODELS = [
  'alphaq3-pro',
  'alphaq2-pro',
  'alphaq2-turbo',
  'alphaq2-pro-fast',
  'alphaq1',
  'alphaq1-classic',
  'alpha2.0',
];
const GAMMA_VIDEO_MODELS = ['gamma-3.0-omni', 'gamma-2.6', 'gamma-2.5', 'gamma-avatar'];
const MU_VIDEO_MODELS = ['mu-2.3', 'mu-2.3-fast'];
// The part after the colon is a size of the wire's list (its tier is the price tier), for i2v as well.
const OMEGA_VIDEO_MODELS = ['omega2.6-t2v:1280*720', 'omega2.6-t2v:1920*1080', 'omega2.6-i2v:1280*720'];
const ETA_VIDEO_MODELS = ['eta-theta-1-0-pro', 'eta-theta-1-5-pro'].flatMap((base) =>
  ['480p', '720p', '1080p'].map((resolution) => `${base}_${resolution}`),
);
const BETA_VIDEO_MODELS = ['beta-video-3.0', 'beta-video-2.0'];
// theta 2.0 on the eta channel, billed by the tokens the upstream reports (docs/theta-2.md).
const THETA_2_MODELS = ['eta-theta-2-0-260128', 'eta-theta-2-0-fast-260128'];
// lambda music: the `mv` values the channel serves, billed per task (docs/music.md).
const LAMBDA_MODELS = ['lambda-v3-0', 'lambda-v3-5', 'lambda-v4', 'lambda-v4-5', 'lambda-v5'];
const VIDEO_MODELS = [
  ...COMPAT_VIDEO_MODELS,
  ...ALPHA_VIDEO_MODELS,
  ...GAMMA_VIDEO_MODELS,
  ...MU_VIDEO_MODELS,
  ...OMEGA_VIDEO_MODELS,
  ...ETA_VIDEO_MODELS,
  ...BETA_VIDEO_MODELS,
];

// Micros per image. Every table has a `default`, since a tier it does not price is a 400; the other
// keys show each family's tiers: compat `<size>`, `<quality>` and `<size>/<quality>`, kappa and beta
// resolution tiers, eta the pixel size sent.
const COMPAT_PER_IMAGE = { default: '40000', '1024x1024': '40000', hd: '80000', '1792x1024/hd': '120000' };
const KAPPA_PER_IMAGE = { default: '39000', '1K': '39000', '2K': '134000', '4K': '240000' };
const ETA_PER_IMAGE = { default: '30000', '2048x2048': '30000', '4096x4096': '60000' };
const BETA_PER_IMAGE = { default: '40000', '1k': '20000', '2k': '40000', '4k': '80000' };
// Micros per second of video by resolution tier: every tier a family's rules name (alpha 540p, mu
// 768p, delta pro 1024p, open nu/xi sizes 1440p …); `default` prices a size without a tier.
const PER_VIDEO_SECOND = {
  default: '50000',
  '480p': '30000',
  '540p': '40000',
  '720p': '50000',
  '768p': '60000',
  '1024p': '80000',
  '1080p': '100000',
  '1440p': '150000',
  '4k': '300000',
};
// Combined billing names with a price row of their own (docs/videos.md); the others, such as
// `gamma-2.6-1080p-offpeak`, are priced by their base's row.
const GAMMA_COMBINED_PRICES = [
  { model: 'gamma-2.6-motion-pro-1080p', perCall: '100000', perVideoSecond: { '1080p': '150000' } },
  { model: 'gamma-3.0-omni-1080p-ref-audio', perCall: '100000', perVideoSecond: { '1080p': '180000' } },
];

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
  ...VIDEO_MODELS.map((model) => ({ model, perVideoSecond: PER_VIDEO_SECOND })),
  ...GAMMA_COMBINED_PRICES,
  // A 720p 16:9 5 s video holds 0.55 units: per call + 108,000 estimated output tokens.
  ...THETA_2_MODELS.map((model) => ({
    model,
    perCall: '10000',
    inputPerMillion: '1000000',
    outputPerMillion: '5000000',
  })),
  ...LAMBDA_MODELS.map((model) => ({ model, perCall: '100000' })),
  // An action priced apart: `{mv}:{action}` wins over `{mv}`.
  { model: 'lambda-v3-0:lyrics', perCall: '10000' },
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
        ...COMPAT_VIDEO_MODELS.map((model) => ({ model })),
      ],
      priority: 0,
    },
    {
      type: 'eta',
      name: 'demo-eta',
      baseUrl: simulatorUrl,
      secret: 'sim-eta-key',
      models: [...ETA_IMAGE_MODELS, ...ETA_VIDEO_MODELS, ...THETA_2_MODELS].map((model) => ({ model })),
      // theta 2.0's asset library: the simulator's control plane and its default key.
      settings: { controlPlaneUrl: `${simulatorUrl}/eta-control`, controlPlaneKey: 'sim-eta-ak|sim-eta-sk' },
      priority: 0,
    },
    {
      // A signed channel (`AccessKey|SecretKey`); an `sk-` secret would call the relay instead.
      type: 'beta',
      name: 'demo-beta',
      baseUrl: simulatorUrl,
      secret: 'sim-beta-ak|sim-beta-sk',
      models: [...BETA_IMAGE_MODELS, ...BETA_VIDEO_MODELS].map((model) => ({ model })),
      priority: 0,
    },
    {
      type: 'alpha',
      name: 'demo-alpha',
      baseUrl: simulatorUrl,
      secret: 'sim-alpha-key',
      models: ALPHA_VIDEO_MODELS.map((model) => ({ model })),
      priority: 0,
    },
    {
      // `SubAppId|SecretId|SecretKey`, signed with GAMMA-HMAC-SHA256.
      type: 'gamma',
      name: 'demo-gamma',
      baseUrl: simulatorUrl,
      secret: '1500000000|sim-gamma-sid|sim-gamma-skey',
      models: GAMMA_VIDEO_MODELS.map((model) => ({ model })),
      priority: 0,
    },
    {
      type: 'mu',
      name: 'demo-mu',
      baseUrl: simulatorUrl,
      secret: 'sim-mu-key',
      models: MU_VIDEO_MODELS.map((model) => ({ model })),
      priority: 0,
    },
    {
      type: 'omega',
      name: 'demo-omega',
      baseUrl: simulatorUrl,
      secret: 'sim-omega-key',
      models: OMEGA_VIDEO_MODELS.map((model) => ({ model })),
      priority: 0,
    },
    {
      type: 'lambda',
      name: 'demo-lambda',
      baseUrl: simulatorUrl,
      secret: 'sim-lambda-key',
      models: LAMBDA_MODELS.map((model) => ({ model })),
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

/** The curls quickstart prints: a native text generation, an image generation answered with a URL, a video task. */
export function demoCurl(gatewayUrl, key) {
  return [
    `curl -s ${gatewayUrl}/v1beta/models/kappa-2.0-flash:generateContent \\`,
    `  -H 'x-vendor-api-key: ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"contents":[{"role":"user","parts":[{"text":"Say hello"}]}]}'`,
    '',
    `curl -s ${gatewayUrl}/v1/images/generations \\`,
    `  -H 'authorization: Bearer ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"model":"draw-2","prompt":"A lighthouse at dawn","size":"512x512","response_format":"url"}'`,
    '',
    `curl -s ${gatewayUrl}/v1/videos \\`,
    `  -H 'authorization: Bearer ${key}' -H 'content-type: application/json' \\`,
    `  -d '{"model":"delta-2","prompt":"Waves on a quiet beach","seconds":"4"}'`,
    '# then GET /v1/videos/<id> until "completed", and GET /v1/videos/<id>/content for the bytes',
    '# music, the family routes and the theta asset workflow: README.md, "One request per modality"',
  ].join('\n');
}
