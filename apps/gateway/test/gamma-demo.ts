import { randomBytes } from 'node:crypto';
import { DEFAULT_GAMMA_KEY, DEFAULT_GAMMA_OFFICIAL_KEY, type JournalEntry } from '@gateway/simulators';
import { waitFor } from '@gateway/testing';
import type { GatewayHarness } from './gateway-harness';
import { newVideoAccount } from './video-demo';

/** Per call and per second by resolution tier, for every gamma model a test uses. */
export const GAMMA_PER_CALL = 1_000n;
export const GAMMA_PER_SECOND: Readonly<Record<string, bigint>> = { '720p': 10_000n, '1080p': 20_000n };
/** A combined billing name with a price row of its own (the others are priced by their base's). */
export const REF_AUDIO_NAME = 'gamma-3.0-omni-1080p-ref-audio';
export const REF_AUDIO_PER_CALL = 3_000n;
export const REF_AUDIO_PER_SECOND_1080P = 50_000n;

/** The models of the signed channel; the token channel (§5.8 upstream) serves gamma-2.5 alone. */
const SIGNED_MODELS = ['gamma-3.0-omni', 'gamma-2.6', 'gamma-avatar'];
export const TOKEN_MODEL = 'gamma-2.5';

export interface GammaDemo {
  key: string;
  keyId: string;
  accountId: string;
}

/** The §5.8 envelope of a gamma task, as a client written from upstreams §5.8 reads it. */
export interface GammaEnvelope {
  code: number;
  message: string;
  request_id: string;
  data?: {
    task_id: string;
    task_status: string;
    task_status_msg: string;
    task_info: { external_task_id: string };
    created_at: number;
    updated_at: number;
    task_result?: { videos: Array<{ id: string; url: string; duration: string }> };
  };
}

/**
 * Prices, a signed gamma channel (`SubAppId|SecretId|SecretKey`) for the 3.0-omni, 2.6 and avatar
 * models, a channel of the official-compatible wire (`AccessKey|SecretKey`) for gamma-2.5, an account
 * and a key.
 */
export async function seedGammaDemo(harness: GatewayHarness): Promise<GammaDemo> {
  const perVideoSecond = Object.fromEntries(
    Object.entries(GAMMA_PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
  );
  await harness.adminOk('PUT', '/admin/prices', {
    prices: [
      ...[...SIGNED_MODELS, TOKEN_MODEL].map((model) => ({
        model,
        perCall: GAMMA_PER_CALL.toString(),
        perVideoSecond,
      })),
      {
        model: REF_AUDIO_NAME,
        perCall: REF_AUDIO_PER_CALL.toString(),
        perVideoSecond: { '1080p': REF_AUDIO_PER_SECOND_1080P.toString() },
      },
    ],
  });
  await harness.createChannel({
    type: 'gamma',
    name: `gamma-signed-${randomBytes(3).toString('hex')}`,
    secret: DEFAULT_GAMMA_KEY,
    models: SIGNED_MODELS.map((model) => ({ model })),
  });
  await harness.createChannel({
    type: 'gamma',
    name: `gamma-token-${randomBytes(3).toString('hex')}`,
    secret: DEFAULT_GAMMA_OFFICIAL_KEY,
    models: [{ model: TOKEN_MODEL }],
  });
  return newVideoAccount(harness);
}

/** What one upstream create the simulator received says: the wire, its endpoint, its JSON body. */
export interface GammaCreate {
  wire: 'signed' | 'official';
  endpoint: string;
  entry: JournalEntry;
  body: Record<string, unknown>;
}

/** Waits for the one gamma create (either wire) whose body contains `marker`, and answers it. */
export async function gammaCreateOf(harness: GatewayHarness, marker: string): Promise<GammaCreate> {
  let found: GammaCreate[] = [];
  await waitFor(async () => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests`);
    const entries = (await response.json()) as JournalEntry[];
    found = entries.flatMap((entry): GammaCreate[] => {
      if (entry.method !== 'POST' || !entry.body.includes(marker)) return [];
      const body = JSON.parse(entry.body) as Record<string, unknown>;
      if (entry.path === '/' && entry.headers['x-gamma-action'] === 'CreateAigcVideoTask') {
        return [{ wire: 'signed', endpoint: 'CreateAigcVideoTask', entry, body }];
      }
      const official = /^\/v1\/videos\/(text2video|image2video|omni-video)$/.exec(entry.path);
      return official ? [{ wire: 'official', endpoint: official[1], entry, body }] : [];
    });
    return found.length > 0;
  }, 30_000);
  if (found.length !== 1) throw new Error(`${found.length} gamma creates carry ${marker}`);
  return found[0];
}
