import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { GatewayHarness, GatewayInstance } from './gateway-harness';

/** The demo's own seed: every model, price and channel that `npm run quickstart` creates. */
const DEMO_SEED = pathToFileURL(join(__dirname, '../../../tools/lib/demo-seed.mjs')).href;

interface ChannelRow {
  type: string;
  models: { model: string }[];
}

/** The seeded demo: its key and account, and the channel types offering each model. */
export interface SeededDemo {
  key: string;
  accountId: string;
  typesOf: Map<string, Set<string>>;
}

/** Seeds the demo through `gateway`'s admin API, as the quickstart does. */
export async function seedDemoModels(harness: GatewayHarness, gateway: GatewayInstance): Promise<SeededDemo> {
  // The seed is an ES module and Jest runs CommonJS: it runs in a Node of its own.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { seedDemo } = await import(process.env.DEMO_SEED);
       const seeded = await seedDemo({ gatewayUrl: process.env.GATEWAY_URL,
         adminToken: process.env.ADMIN_TOKEN, simulatorUrl: process.env.SIMULATOR_URL });
       process.stdout.write(JSON.stringify(seeded));`,
    ],
    {
      env: {
        ...process.env,
        DEMO_SEED,
        GATEWAY_URL: gateway.url,
        ADMIN_TOKEN: harness.adminToken,
        SIMULATOR_URL: harness.simulatorUrl,
      },
    },
  );
  const { key, accountId } = JSON.parse(stdout) as { key: string; accountId: string };
  const typesOf = new Map<string, Set<string>>();
  const channels = await harness.adminOk<ChannelRow[] | { data: ChannelRow[] }>('GET', '/admin/channels');
  for (const channel of Array.isArray(channels) ? channels : channels.data) {
    for (const { model } of channel.models) {
      typesOf.set(model, (typesOf.get(model) ?? new Set()).add(channel.type));
    }
  }
  return { key, accountId, typesOf };
}
