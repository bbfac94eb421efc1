import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import OpenAI from 'openai';
import type { JournalEntry } from '@gateway/simulators';
import { QUEUE_NAMES } from '@gateway/tasks';
import { TaskStepWorkerModule, WorkerRuntimeModule } from '@gateway/tasks/worker';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';

/** The compat video families the video tests use (upstreams.md §2.4). */
export const COMPAT_VIDEO_MODELS = [
  'delta-2',
  'epsilon_3_1',
  'epsilon_3_1-extend',
  'zeta-video-3',
  'zeta-video-3-pro',
  'nu-1',
];

/** Every test video model's price: per call, and per second by resolution tier (compat tiers). */
export const VIDEO_PER_CALL = 1_000n;
export const VIDEO_PER_SECOND: Readonly<Record<string, bigint>> = {
  '720p': 10_000n,
  '1024p': 15_000n,
  '1080p': 20_000n,
  '4k': 40_000n,
  default: 5_000n,
};

export interface VideoDemo {
  key: string;
  keyId: string;
  accountId: string;
  channelId: string;
}

export type VideoObject = OpenAI.Videos.Video & { video_url?: string; status: string };

/** Prices, a compat channel offering the video families, an account and a key. */
export async function seedVideoDemo(
  harness: GatewayHarness,
  creditMicros = 1_000_000_000n,
): Promise<VideoDemo> {
  const perVideoSecond = Object.fromEntries(
    Object.entries(VIDEO_PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
  );
  await harness.adminOk('PUT', '/admin/prices', {
    prices: COMPAT_VIDEO_MODELS.map((model) => ({
      model,
      perCall: VIDEO_PER_CALL.toString(),
      perVideoSecond,
    })),
  });
  const channelId = await harness.createChannel({
    type: 'compat',
    name: `compat-videos-${randomBytes(3).toString('hex')}`,
    secret: 'sim-compat-key',
    models: COMPAT_VIDEO_MODELS.map((model) => ({ model })),
  });
  return { ...(await newVideoAccount(harness, creditMicros)), channelId };
}

/** Another account and key, for ownership and money checks. */
export async function newVideoAccount(
  harness: GatewayHarness,
  creditMicros = 1_000_000_000n,
): Promise<{ key: string; keyId: string; accountId: string }> {
  const accountId = await harness.createAccount(creditMicros);
  const { key, id } = await harness.createKey(accountId);
  return { key, keyId: id, accountId };
}

/**
 * worker-video's composition (apps/worker-video/src/worker-video.module.ts: the shared step worker on
 * the video-tasks queue), built here from the libraries, since an app's test may not import another
 * app; configured like the gateway under test, with short poll delays.
 */
@Module({})
class VideoWorkerUnderTest {
  static forEnvironment(env: Record<string, string>): DynamicModule {
    return {
      module: VideoWorkerUnderTest,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-video', env }),
        TaskStepWorkerModule.forQueue({
          queue: QUEUE_NAMES.videoTasks,
          concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
          defaultConcurrency: 8,
          timing: { minPollDelayMs: 20, maxPollDelayMs: 100 },
        }),
      ],
    };
  }
}

/** `env` adds worker settings (sweep intervals, submission timeout) to the harness's stores and keys. */
export function startVideoWorker(
  harness: GatewayHarness,
  env: Record<string, string> = {},
): Promise<INestApplicationContext> {
  const { config } = harness;
  return NestFactory.createApplicationContext(
    VideoWorkerUnderTest.forEnvironment({
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ADMIN_TOKEN: config.adminToken,
      MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
      LOG_LEVEL: 'silent',
      ...env,
    }),
    { logger: false },
  );
}

/** The official client, pointed at a gateway. */
export function videoClient(baseUrl: string, key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
}

/** Retrieves the video until it has ended (worker-video moves it along). */
export async function untilVideoEnds(client: OpenAI, videoId: string): Promise<VideoObject> {
  let video = (await client.videos.retrieve(videoId)) as VideoObject;
  await waitFor(async () => {
    video = (await client.videos.retrieve(videoId)) as VideoObject;
    return ['completed', 'failed', 'cancelled'].includes(video.status);
  }, 30_000);
  return video;
}

/** The video creates the simulator received whose prompt contains `marker`, oldest first. */
export async function simulatorCreates(harness: GatewayHarness, marker: string): Promise<JournalEntry[]> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/requests`);
  const entries = (await response.json()) as JournalEntry[];
  return entries.filter(
    (entry) =>
      entry.method === 'POST' &&
      /^\/v1\/videos(\/[^/]+\/remix)?$/.test(entry.path) &&
      (entry.form ? String(entry.form.fields['prompt']) : entry.body).includes(marker),
  );
}

/** What a create the simulator received asked for: JSON fields, or a form's text parts and files. */
export function createdFields(entry: JournalEntry): Record<string, unknown> {
  if (!entry.form) return JSON.parse(entry.body) as Record<string, unknown>;
  return { ...entry.form.fields, input_reference_files: entry.form.files.length };
}

/** The upstream creates the simulator made under one Idempotency-Key (the gateway sends the task id). */
export async function simulatorCreatesByKey(
  harness: GatewayHarness,
  key: string,
): Promise<{ requests: number; created: number } | undefined> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/videos/creates?key=${encodeURIComponent(key)}`);
  return ((await response.json()) as Record<string, { requests: number; created: number }>)[key];
}

/** The task's hold: its amount and status. */
export async function holdOf(
  harness: GatewayHarness,
  taskId: string,
): Promise<{ amount: bigint; status: string } | undefined> {
  const [row] = await harness.query<{ amount: string; status: string }>(
    'select amount::text, status from holds where request_id = $1',
    [taskId],
  );
  return row && { amount: BigInt(row.amount), status: row.status };
}

/** Waits until the task's hold is settled and answers what it captured (0 when released). */
export async function settledCapture(harness: GatewayHarness, taskId: string): Promise<bigint> {
  await waitFor(async () => (await holdOf(harness, taskId))?.status === 'settled', 30_000);
  const rows = await harness.query<{ amount: string }>(
    "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
    [taskId],
  );
  return rows.reduce((total, row) => total + BigInt(row.amount), 0n);
}

/** A video test's stack: a harness seeded by the file, a video worker, and an instance that may fetch from the simulator. */
export interface VideoStack<Demo> {
  harness: GatewayHarness;
  gateway: GatewayInstance;
  demo: Demo;
  close(): Promise<void>;
}

export async function startVideoStack<Demo>(
  seed: (harness: GatewayHarness) => Promise<Demo>,
  env: Record<string, string> = {},
): Promise<VideoStack<Demo>> {
  const harness = await GatewayHarness.start(env);
  const demo = await seed(harness);
  const worker = await startVideoWorker(harness);
  const gateway = await harness.startSimulatorTrustingInstance();
  return {
    harness,
    gateway,
    demo,
    close: async () => {
      await worker.close();
      await harness.close();
    },
  };
}
