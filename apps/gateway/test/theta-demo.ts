import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { JournalEntry } from '@gateway/simulators';
import { AssetStatusWorkerModule, WorkerRuntimeModule } from '@gateway/tasks/worker';
import { waitFor } from '@gateway/testing';
import type { GatewayHarness, HttpAnswer } from './gateway-harness';

/** The theta 2.0 models, and the compatible name the test channel offers (mapped to the standard id). */
export const THETA_2_MODELS = ['eta-theta-2-0-260128', 'eta-theta-2-0-fast-260128'];
export const OFFERED_ALIAS = 'theta-2.0-pro';
/** The control plane's key in the simulator (`sim-eta-ak|sim-eta-sk`). */
export const ETA_CONTROL_KEY = 'sim-eta-ak|sim-eta-sk';
/** Token prices of every theta 2.0 name: per call, and per million output tokens. */
export const THETA_PER_CALL = 1_000n;
export const THETA_OUTPUT_PER_MILLION = 2_000_000n;

/** What a theta 2.0 task of `tokens` output tokens costs (per call + tokens at the output price, rounded up). */
export const tokenCost = (tokens: number): bigint =>
  THETA_PER_CALL + (BigInt(tokens) * THETA_OUTPUT_PER_MILLION + 999_999n) / 1_000_000n;

/**
 * Prices by tokens and an eta channel on the simulator offering the 2.0 models and one compatible
 * name, its control plane at the simulator's `/eta-control` with `controlPlaneKey`.
 */
export async function seedThetaChannel(
  harness: GatewayHarness,
  options: { controlPlaneKey?: string; priority?: number } = {},
): Promise<string> {
  await harness.adminOk('PUT', '/admin/prices', {
    prices: [...THETA_2_MODELS, OFFERED_ALIAS].map((model) => ({
      model,
      perCall: THETA_PER_CALL.toString(),
      outputPerMillion: THETA_OUTPUT_PER_MILLION.toString(),
    })),
  });
  const controlPlaneKey = options.controlPlaneKey ?? ETA_CONTROL_KEY;
  harness.rememberSecret(controlPlaneKey);
  return harness.createChannel({
    type: 'eta',
    name: `eta-theta-${randomBytes(3).toString('hex')}`,
    secret: 'sim-eta-key',
    models: [
      ...THETA_2_MODELS.map((model) => ({ model })),
      { model: OFFERED_ALIAS, upstreamModel: 'eta-theta-2-0-260128' },
    ],
    settings: { controlPlaneUrl: `${harness.simulatorUrl}/eta-control`, controlPlaneKey },
    priority: options.priority ?? 0,
  });
}

/**
 * worker-assets' composition (apps/worker-assets/src/worker-assets.module.ts), built here from the
 * libraries since an app's test may not import another app, with short delays between looks.
 */
@Module({})
class AssetWorkerUnderTest {
  static forEnvironment(env: Record<string, string>): DynamicModule {
    return {
      module: AssetWorkerUnderTest,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-assets', env }),
        AssetStatusWorkerModule.forRoot({ timing: { minPollDelayMs: 20, maxPollDelayMs: 100 } }),
      ],
    };
  }
}

export function startAssetWorker(harness: GatewayHarness): Promise<INestApplicationContext> {
  const { config } = harness;
  return NestFactory.createApplicationContext(
    AssetWorkerUnderTest.forEnvironment({
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ADMIN_TOKEN: config.adminToken,
      MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
}

export interface ThetaAsset {
  Id: string;
  Name: string;
  URL: string;
  AssetType: string;
  GroupId: string;
  Status: string;
  Error?: { Code: string; Message: string };
}

export interface ThetaVideo {
  id: string;
  task_id: string;
  status: string;
  video_url?: string;
}

/**
 * A client written from the interface spec ("Theta 2.0 video and assets"): it knows the routes, the
 * `GroupId`, `AssetId`/`task_id` and `Status` fields, `asset://{AssetId}`, and `video_url`.
 */
export class ThetaClient {
  constructor(
    private readonly harness: GatewayHarness,
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  action<T = Record<string, unknown>>(action: string, body: unknown): Promise<HttpAnswer<T>> {
    return this.post<T>(`/v1/theta/asset/${action}`, body);
  }

  async createGroup(name: string): Promise<string> {
    const answer = await this.action<{ GroupId: string }>('CreateAssetGroup', { Name: name });
    expect(answer.status).toBe(200);
    return answer.body.GroupId;
  }

  async createAsset(groupId: string, url: string, name: string, type = 'Image'): Promise<string> {
    const answer = await this.action<{ AssetId: string; task_id: string }>('CreateAsset', {
      GroupId: groupId,
      URL: url,
      Name: name,
      AssetType: type,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.task_id).toBe(answer.body.AssetId);
    return answer.body.AssetId;
  }

  async getAsset(id: string): Promise<ThetaAsset> {
    const answer = await this.action<ThetaAsset>('GetAsset', { Id: id });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  /** Polls GetAsset until the asset is no longer Processing. */
  async untilProcessed(id: string): Promise<ThetaAsset> {
    let asset = await this.getAsset(id);
    await waitFor(async () => {
      asset = await this.getAsset(id);
      return asset.Status !== 'Processing';
    }, 30_000);
    return asset;
  }

  createVideo(
    body: unknown,
  ): Promise<HttpAnswer<ThetaVideo & { error?: { message: string; param: string } }>> {
    return this.post('/v1/video/generations', body);
  }

  async queryVideo(taskId: string): Promise<ThetaVideo> {
    const answer = await this.harness.request<ThetaVideo>('GET', `/v1/video/generations/${taskId}`, {
      headers: this.auth(),
      baseUrl: this.baseUrl,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  /** Queries until the task has ended (worker-video moves it along). */
  async untilVideoEnds(taskId: string): Promise<ThetaVideo> {
    let video = await this.queryVideo(taskId);
    await waitFor(async () => {
      video = await this.queryVideo(taskId);
      return ['completed', 'failed', 'cancelled'].includes(video.status);
    }, 30_000);
    return video;
  }

  auth(): Record<string, string> {
    return { authorization: `Bearer ${this.key}` };
  }

  private post<T>(path: string, body: unknown): Promise<HttpAnswer<T>> {
    return this.harness.request<T>('POST', path, { body, headers: this.auth(), baseUrl: this.baseUrl });
  }
}

/** The requests the simulator received on a path, oldest first (its journal keeps the last 200). */
export async function simulatorRequests(harness: GatewayHarness, path: string): Promise<JournalEntry[]> {
  const response = await fetch(`${harness.simulatorUrl}/__sim/requests`);
  return ((await response.json()) as JournalEntry[]).filter((entry) => entry.path === path);
}

/** A `content[]` image item citing an asset. */
export const assetImage = (assetId: string) => ({
  type: 'image_url',
  image_url: { url: `asset://${assetId}` },
  role: 'reference_image',
});
