import { randomBytes } from 'node:crypto';
import {
  DEFAULT_BETA_KEY,
  DEFAULT_COMPAT_KEY,
  DEFAULT_ETA_KEY,
  DEFAULT_MU_KEY,
  DEFAULT_OMEGA_KEY,
  type JournalEntry,
} from '@gateway/simulators';
import { waitFor } from '@gateway/testing';
import { pngBytes, until } from './alpha-demo';
import type { GatewayHarness, GatewayInstance, HttpAnswer } from './gateway-harness';
import { newVideoAccount, settledCapture, startVideoStack, type VideoStack } from './video-demo';

/**
 * The families of the video matrix (upstreams §11) that no family test runs end to end through the
 * generic routes: each model on a channel of its own type on the simulator.
 */
export const MATRIX_CHANNELS: ReadonlyArray<{ type: string; secret: string; models: string[] }> = [
  {
    type: 'eta',
    secret: DEFAULT_ETA_KEY,
    models: ['eta-theta-1-0-pro_480p', 'eta-theta-1-0-pro_720p', 'eta-theta-1-5-pro_1080p'],
  },
  { type: 'mu', secret: DEFAULT_MU_KEY, models: ['mu-2.3', 'mu-2.3-fast'] },
  {
    type: 'omega',
    secret: DEFAULT_OMEGA_KEY,
    models: [
      'omega2.6-t2v:1280*720',
      'omega2.6-t2v:1920*1080',
      'omega2.6-i2v:1280*720',
      'omega2.6-i2v:1920*1080',
    ],
  },
  { type: 'beta', secret: DEFAULT_BETA_KEY, models: ['beta-video-3.0', 'beta-video-2.0'] },
  { type: 'compat', secret: DEFAULT_COMPAT_KEY, models: ['nu-1', 'xi-1'] },
];

/** Every matrix model's price: per call, and per second by resolution tier (each family's tiers). */
export const MATRIX_PER_CALL = 1_000n;
export const MATRIX_PER_SECOND: Readonly<Record<string, bigint>> = {
  '480p': 4_000n,
  '720p': 10_000n,
  '768p': 12_000n,
  '1080p': 20_000n,
  default: 5_000n,
};

/** What a task of `seconds` at `tier` holds and, settled on those seconds, captures. */
export const matrixPrice = (seconds: number, tier: string): bigint =>
  MATRIX_PER_CALL + BigInt(seconds) * MATRIX_PER_SECOND[tier];

/** The status words of the interface's video object (gateway interface, video task object). */
export const INTERFACE_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'];

/** A PNG frame the upstream rules accept (beta's short side is at least 320). */
export const FRAME_PNG = pngBytes(640, 360);
export const FRAME_DATA_URL = `data:image/png;base64,${FRAME_PNG.toString('base64')}`;

export interface VideoAnswer {
  id: string;
  task_id?: string;
  status: string;
  seconds?: string;
  video_url?: string;
  error?: { message: string; type?: string; param: string | null; code: string | null } | null;
}

export interface MatrixDemo {
  key: string;
  accountId: string;
}

/** Prices of every matrix model, a channel per family, an account and a key. */
export async function seedMatrixDemo(harness: GatewayHarness): Promise<MatrixDemo> {
  const perVideoSecond = Object.fromEntries(
    Object.entries(MATRIX_PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
  );
  await harness.adminOk('PUT', '/admin/prices', {
    prices: MATRIX_CHANNELS.flatMap((channel) => channel.models).map((model) => ({
      model,
      perCall: MATRIX_PER_CALL.toString(),
      perVideoSecond,
    })),
  });
  for (const channel of MATRIX_CHANNELS) {
    await harness.createChannel({
      type: channel.type,
      name: `matrix-${channel.type}-${randomBytes(3).toString('hex')}`,
      secret: channel.secret,
      models: channel.models.map((model) => ({ model })),
    });
  }
  return newVideoAccount(harness);
}

/** What every matrix file runs against: the video stack with the matrix demo, and a client of its instance. */
export type MatrixStack = VideoStack<MatrixDemo> & { client: MatrixClient };

export async function startMatrixStack(env: Record<string, string> = {}): Promise<MatrixStack> {
  const stack = await startVideoStack(seedMatrixDemo, env);
  return { ...stack, client: new MatrixClient(stack.harness, stack.gateway, stack.demo.key) };
}

/**
 * A client of the generic video routes written from the interface spec: `POST /v1/videos` (JSON or
 * multipart), `POST /v1/video/create`, `GET /v1/videos/{id}`, `GET /v1/video/query`, the content route.
 */
export class MatrixClient {
  constructor(
    private readonly harness: GatewayHarness,
    private readonly gateway: GatewayInstance,
    private readonly key: string,
  ) {}

  private get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.key}` };
  }

  create(body: unknown, key = this.key): Promise<HttpAnswer<VideoAnswer>> {
    return this.harness.request<VideoAnswer>('POST', '/v1/videos', {
      body,
      headers: { authorization: `Bearer ${key}` },
      baseUrl: this.gateway.url,
    });
  }

  async createForm(form: FormData): Promise<HttpAnswer<VideoAnswer>> {
    const response = await fetch(`${this.gateway.url}/v1/videos`, {
      method: 'POST',
      headers: this.auth,
      body: form,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: JSON.parse(text) as VideoAnswer,
      text,
    };
  }

  createUnified(body: unknown, key = this.key): Promise<HttpAnswer<VideoAnswer>> {
    return this.harness.request<VideoAnswer>('POST', '/v1/video/create', {
      body,
      headers: { authorization: `Bearer ${key}` },
      baseUrl: this.gateway.url,
    });
  }

  /** The video as `GET /v1/videos/{id}` (OpenAI style) or `GET /v1/video/query?id=` (unified) answers it. */
  retrieve(id: string, style: 'openai' | 'unified' = 'openai'): Promise<HttpAnswer<VideoAnswer>> {
    const path = style === 'openai' ? `/v1/videos/${id}` : `/v1/video/query?id=${encodeURIComponent(id)}`;
    return this.harness.request<VideoAnswer>('GET', path, { headers: this.auth, baseUrl: this.gateway.url });
  }

  /** Retrieves the video until it has ended, and answers the last answer with every status word seen. */
  async untilEnded(id: string, style: 'openai' | 'unified' = 'openai') {
    const seen = new Set<string>();
    const last = await until(
      async () => {
        const answer = await this.retrieve(id, style);
        seen.add(answer.body.status);
        return answer;
      },
      (answer) => !['queued', 'processing'].includes(answer.body.status),
    );
    return { video: last.body, statuses: [...seen] };
  }

  content(id: string): Promise<Response> {
    return fetch(`${this.gateway.url}/v1/videos/${id}/content`, { headers: this.auth });
  }

  contentUrl(id: string): string {
    return `${this.gateway.url}/v1/videos/${id}/content`;
  }

  /**
   * The task completed on the interface's words, its `video_url` is the gateway's content route, which
   * downloads an MP4, and its hold settled once, capturing `capture`.
   */
  async expectCompleted(id: string, capture: bigint, style: 'openai' | 'unified' = 'openai'): Promise<void> {
    const { video, statuses } = await this.untilEnded(id, style);
    expect(video).toMatchObject({ status: 'completed', video_url: this.contentUrl(id) });
    expect(statuses.every((status) => INTERFACE_STATUSES.includes(status))).toBe(true);
    const download = await this.content(id);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('video/mp4');
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(4, 8)
        .toString('ascii'),
    ).toBe('ftyp');
    expect(await settledCapture(this.harness, id)).toBe(capture);
  }
}

/** Waits for the one simulator request on `path` whose body carries `marker`, and answers its JSON body. */
export async function receivedUpstream(
  harness: GatewayHarness,
  path: RegExp,
  marker: string,
): Promise<Record<string, unknown>> {
  let found: JournalEntry[] = [];
  await waitFor(async () => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    const entries = (await response.json()) as JournalEntry[];
    found = entries.filter(
      (entry) => entry.method === 'POST' && path.test(entry.path) && entry.body.includes(marker),
    );
    return found.length > 0;
  }, 30_000);
  expect(found).toHaveLength(1);
  return JSON.parse(found[0].body) as Record<string, unknown>;
}

/** The upstream create paths of the matrix wires. */
export const UPSTREAM_CREATE = {
  theta: /^\/api\/v3\/contents\/generations\/tasks$/,
  mu: /^\/v1\/video_generation$/,
  omega: /^\/api\/v1\/services\/aigc\/video-generation\/video-synthesis$/,
  beta: /^\/$/,
  compat: /^\/v1\/videos$/,
};
