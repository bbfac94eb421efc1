import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLUSTER_MODELS } from './cluster-seed';

export type TrafficKind = 'native' | 'chat' | 'image' | 'video';

/** One request as the client saw it, times in ms since the load started. */
export interface RequestOutcome {
  kind: TrafficKind;
  startedAt: number;
  /** When the answer (or the failure) came: a request in flight when a fault strikes fails after it. */
  at: number;
  ok: boolean;
  /** The HTTP status, or 0 when no answer came (connection reset, timeout). */
  status: number;
  detail?: string;
}

export interface ClusterLoadPlan {
  publicUrl: string;
  key: string;
  videoCount: number;
  /** The video creates are spread over this long. */
  videoSpreadMs: number;
  /** How long the scripted upstream takes to finish a video. */
  videoTaskMs: number;
}

const REQUEST_TIMEOUT_MS = 20_000;
/** Pause between two requests of one text or image loop: enough traffic, without taking both cores. */
const LOOP_PAUSE_MS = 40;
/** A client retries a failed create under the same Idempotency-Key, as an SDK with retries does. */
const VIDEO_CREATE_ATTEMPTS = 30;
const VIDEO_RETRY_PAUSE_MS = 500;

/**
 * The cluster test's traffic through the load balancer: text at both dialects (native generate and
 * chat completions), image generations, and video creates spread over a window, each create retried
 * under its Idempotency-Key until answered (a create the client never saw answered is the client's
 * to repeat; the key makes it one task).
 */
export class ClusterLoad {
  readonly outcomes: RequestOutcome[] = [];
  /** Idempotency key → the task id the create answered. */
  readonly videoTasks = new Map<string, string>();
  private readonly startedAt = Date.now();
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private readonly creates: Promise<void>;

  constructor(private readonly plan: ClusterLoadPlan) {
    this.loops.push(
      this.loop('native', () => this.nativeGenerate()),
      this.loop('chat', () => this.chatCompletion()),
      this.loop('native', () => this.nativeGenerate()),
      this.loop('chat', () => this.chatCompletion()),
      this.loop('image', () => this.imageGeneration()),
    );
    this.creates = this.createVideos();
  }

  /** Milliseconds since the load started. */
  now(): number {
    return Date.now() - this.startedAt;
  }

  /** Ends the text and image loops; resolves once every video create was answered (or gave up). */
  async finish(): Promise<void> {
    this.running = false;
    await Promise.all([...this.loops, this.creates]);
  }

  private async loop(kind: TrafficKind, send: () => Promise<Response>): Promise<void> {
    while (this.running) {
      await this.record(kind, send);
      await sleep(LOOP_PAUSE_MS);
    }
  }

  private async record(kind: TrafficKind, send: () => Promise<Response>): Promise<Response | undefined> {
    const startedAt = this.now();
    try {
      const response = await send();
      const text = await response.text();
      const ok = response.status >= 200 && response.status < 300;
      const detail = ok ? undefined : text.slice(0, 200);
      this.outcomes.push({ kind, startedAt, at: this.now(), ok, status: response.status, detail });
      return ok ? new Response(text, { status: response.status }) : undefined;
    } catch (error) {
      const detail = String(error).slice(0, 200);
      this.outcomes.push({ kind, startedAt, at: this.now(), ok: false, status: 0, detail });
      return undefined;
    }
  }

  private post(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
    return fetch(`${this.plan.publicUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }

  private nativeGenerate(): Promise<Response> {
    return this.post(
      `/v1beta/models/${CLUSTER_MODELS.native}:generateContent`,
      { contents: [{ role: 'user', parts: [{ text: 'Hello from the cluster test' }] }] },
      { 'x-vendor-api-key': this.plan.key },
    );
  }

  private chatCompletion(): Promise<Response> {
    return this.post(
      '/v1/chat/completions',
      { model: CLUSTER_MODELS.chat, messages: [{ role: 'user', content: 'Hello from the cluster test' }] },
      { authorization: `Bearer ${this.plan.key}` },
    );
  }

  private imageGeneration(): Promise<Response> {
    return this.post(
      '/v1/images/generations',
      {
        model: CLUSTER_MODELS.image,
        prompt: 'A lighthouse at dawn',
        size: '1024x1024',
        response_format: 'b64_json',
      },
      { authorization: `Bearer ${this.plan.key}` },
    );
  }

  private async createVideos(): Promise<void> {
    const interval = this.plan.videoSpreadMs / this.plan.videoCount;
    const creates: Promise<void>[] = [];
    for (let index = 0; index < this.plan.videoCount; index += 1) {
      creates.push(this.createVideo(`cluster-${randomBytes(8).toString('hex')}`));
      await sleep(interval);
    }
    await Promise.all(creates);
  }

  private async createVideo(idempotencyKey: string): Promise<void> {
    const body = {
      model: CLUSTER_MODELS.video,
      prompt: `Waves on a quiet beach [[sim task_ms=${this.plan.videoTaskMs}]]`,
      seconds: '4',
    };
    for (let attempt = 0; attempt < VIDEO_CREATE_ATTEMPTS; attempt += 1) {
      const answer = await this.record('video', () =>
        this.post('/v1/videos', body, {
          authorization: `Bearer ${this.plan.key}`,
          'idempotency-key': idempotencyKey,
        }),
      );
      if (answer) {
        const { id } = (await answer.json()) as { id: string };
        this.videoTasks.set(idempotencyKey, id);
        return;
      }
      await sleep(VIDEO_RETRY_PAUSE_MS);
    }
  }
}
