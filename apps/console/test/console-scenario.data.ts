/** One channel of every channel type the registry has, pointed at the simulators (as the demo seeds them). */
export function channelsOfEveryType(simulatorUrl: string) {
  return [
    { type: 'kappa', secret: 'sim-kappa-key', models: ['kappa-2.0-flash'] },
    { type: 'compat', secret: 'sim-compat-key', models: ['draw-2', 'delta-2'] },
    {
      type: 'eta',
      secret: 'sim-eta-key',
      models: ['eta-iota-4-0-250828'],
      settings: { controlPlaneUrl: `${simulatorUrl}/eta-control`, controlPlaneKey: 'sim-eta-ak|sim-eta-sk' },
    },
    { type: 'beta', secret: 'sim-beta-ak|sim-beta-sk', models: ['beta-4.0'] },
    { type: 'alpha', secret: 'sim-alpha-key', models: ['alphaq2-pro'] },
    { type: 'gamma', secret: '1500000000|sim-gamma-sid|sim-gamma-skey', models: ['gamma-2.6'] },
    { type: 'mu', secret: 'sim-mu-key', models: ['mu-2.3'] },
    { type: 'omega', secret: 'sim-omega-key', models: ['omega2.6-t2v:1280*720'] },
    { type: 'lambda', secret: 'sim-lambda-key', models: ['lambda-v4'] },
  ].map((channel) => ({ ...channel, name: `e2e-${channel.type}`, baseUrl: simulatorUrl }));
}

/** Prices of the models the scenario calls (micros), set through the admin API before the browser opens. */
export const SCENARIO_PRICES = [
  {
    model: 'kappa-2.0-flash',
    inputPerMillion: '100000',
    outputPerMillion: '400000',
    defaultMaxOutputTokens: 1024,
  },
  { model: 'draw-2', perImage: { default: '40000' } },
  { model: 'delta-2', perVideoSecond: { default: '50000' } },
  { model: 'beta-4.0', perImage: { default: '40000', '1k': '20000', '2k': '40000', '4k': '80000' } },
];

/** The pages screenshotted at the end, by their navigation label. */
export const PAGE_NAMES = [
  'Overview',
  'Channels',
  'Keys',
  'Accounts',
  'Prices',
  'Logs',
  'Tasks',
  'Webhooks',
  'Audit',
];
