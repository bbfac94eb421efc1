import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { JournalEntry } from '@gateway/simulators';
import { QUEUE_NAMES } from '@gateway/tasks';
import { MusicPollModule, TaskStepWorkerModule, WorkerRuntimeModule } from '@gateway/tasks/worker';
import { waitFor } from '@gateway/testing';
import type { GatewayHarness } from './gateway-harness';
import { newVideoAccount } from './video-demo';

/** The models the demo channel offers, and their prices (perCall, micros): lyrics on v3-0 priced apart. */
export const MUSIC_PER_CALL: Readonly<Record<string, bigint>> = {
  'lambda-v3-0': 30_000n,
  'lambda-v4': 50_000n,
  'lambda-v3-0:lyrics': 5_000n,
};
/** How often the worker under test runs its music poll cycle. */
export const MUSIC_POLL_INTERVAL_MS = 200;

export interface MusicDemo {
  key: string;
  keyId: string;
  accountId: string;
  channelId: string;
}

/** §9.3/§9.4 as a client sees them: `{code, message, data}`. */
export interface LambdaEnvelope<Data = unknown> {
  code: string;
  message: string;
  data: Data;
}

export interface LambdaClip {
  id: string;
  title: string;
  status: string;
  audio_url: string;
  video_url: string;
  image_url: string;
  image_large_url: string;
  model_name: string;
  metadata: { duration: number | null; tags: string };
}

export interface LambdaTask<Data = LambdaClip[]> {
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  finish_time: number | null;
  progress: string;
  data: Data;
}

/** Prices, a lambda channel offering lambda-v3-0 and lambda-v4, an account and a key. */
export async function seedMusicDemo(harness: GatewayHarness): Promise<MusicDemo> {
  await harness.adminOk('PUT', '/admin/prices', {
    prices: Object.entries(MUSIC_PER_CALL).map(([model, perCall]) => ({
      model,
      perCall: perCall.toString(),
    })),
  });
  const channelId = await harness.createChannel({
    type: 'lambda',
    name: `lambda-${randomBytes(3).toString('hex')}`,
    secret: 'sim-lambda-key',
    models: [{ model: 'lambda-v3-0' }, { model: 'lambda-v4' }],
  });
  return { ...(await newVideoAccount(harness)), channelId };
}

/**
 * A client written from upstreams.md §9 against the gateway: the same paths and bodies as the wire,
 * the gateway's key as the Bearer token.
 */
export function lambdaClient(harness: GatewayHarness, key: string) {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  return {
    submit: (action: string, body: unknown, extra?: Record<string, string>) =>
      harness.request<LambdaEnvelope<string>>('POST', `/lambda/submit/${action}`, {
        body,
        headers: headers(extra),
      }),
    fetchOne: <Data = LambdaClip[]>(id: string) =>
      harness.request<LambdaEnvelope<LambdaTask<Data>>>('GET', `/lambda/fetch/${encodeURIComponent(id)}`, {
        headers: headers(),
      }),
    fetchMany: (ids: unknown) =>
      harness.request<LambdaEnvelope<LambdaTask[]>>('POST', '/lambda/fetch', {
        body: { ids },
        headers: headers(),
      }),
    download: (url: string, range?: string) => fetch(url, { headers: headers(range ? { range } : {}) }),
  };
}

export type LambdaClient = ReturnType<typeof lambdaClient>;

/** Submits and answers the gateway's task id, failing on anything but success. */
export async function submitted(client: LambdaClient, action: string, body: unknown): Promise<string> {
  const answer = await client.submit(action, body);
  if (answer.status !== 200 || answer.body.code !== 'success') {
    throw new Error(`submit answered ${answer.status}: ${answer.text}`);
  }
  return answer.body.data;
}

/** Fetches the task until it has ended (worker-video moves it along). */
export async function untilMusicEnds<Data = LambdaClip[]>(
  client: LambdaClient,
  id: string,
): Promise<LambdaTask<Data>> {
  let task: LambdaTask<Data> | undefined;
  await waitFor(async () => {
    task = (await client.fetchOne<Data>(id)).body.data;
    return task.status === 'SUCCESS' || task.status === 'FAILURE';
  }, 30_000);
  return task as LambdaTask<Data>;
}

/** The row status of tasks, read from the database (asks no upstream, unlike a fetch of a completed task). */
export async function rowStatuses(harness: GatewayHarness, ids: readonly string[]): Promise<string[]> {
  const rows = await harness.query<{ id: string; status: string }>(
    'select id, status from tasks where id = any($1)',
    [ids],
  );
  const byId = new Map(rows.map((row) => [row.id, row.status]));
  return ids.map((id) => byId.get(id) ?? 'missing');
}

/** The upstream task id a music task's row keeps in its handle. */
export async function upstreamIdOf(harness: GatewayHarness, taskId: string): Promise<string> {
  const [row] = await harness.query<{ upstream_id: string }>(
    "select upstream_handle->>'taskId' as upstream_id from tasks where id = $1",
    [taskId],
  );
  return row.upstream_id;
}

/** What the simulator received on the lambda wire since its last reset, oldest first. */
export async function lambdaCalls(harness: GatewayHarness): Promise<JournalEntry[]> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
  return ((await response.json()) as JournalEntry[]).filter((entry) => entry.path.startsWith('/lambda/'));
}

export async function resetSimulator(harness: GatewayHarness): Promise<void> {
  await fetch(`${harness.simulatorUrl}/__sim/reset`, { method: 'POST' });
}

/**
 * worker-video's composition (apps/worker-video/src/worker-video.module.ts: the step worker on the
 * video-tasks queue and the music poll cycle), built here from the libraries, since an app's test may
 * not import another app; with short poll delays and a fast cycle.
 */
@Module({})
class MusicWorkerUnderTest {
  static forEnvironment(env: Record<string, string>): DynamicModule {
    return {
      module: MusicWorkerUnderTest,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-video', env }),
        TaskStepWorkerModule.forQueue({
          queue: QUEUE_NAMES.videoTasks,
          concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
          defaultConcurrency: 8,
          timing: { minPollDelayMs: 20, maxPollDelayMs: 100 },
        }),
        MusicPollModule.forRoot(),
      ],
    };
  }
}

export function startMusicWorker(harness: GatewayHarness): Promise<INestApplicationContext> {
  const { config } = harness;
  return NestFactory.createApplicationContext(
    MusicWorkerUnderTest.forEnvironment({
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ADMIN_TOKEN: config.adminToken,
      MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
      MUSIC_POLL_INTERVAL_MS: String(MUSIC_POLL_INTERVAL_MS),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
}
