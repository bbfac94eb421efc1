import { CreditService, HoldService } from '@gateway/billing';
import type { PrismaClient } from '@gateway/db';
import type { VideoCall, VideoRequest } from '@gateway/providers-core';
import { videoAdapterFor } from '@gateway/providers';
import { encryptSecret } from '@gateway/routing';
import { enqueueTaskStep, TaskStore, toVideoTaskPriceSnapshot } from '@gateway/tasks';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/** The simulator's default compat key (libs/simulators simulator-options). */
const SIMULATOR_COMPAT_KEY = 'sim-compat-key';
const ROUTE = '/v1/videos';
const PER_CALL_MICROS = 10_000n;
const PER_SECOND_MICROS = 25_000n;
const DEADLINE_MS = 10 * 60_000;
/** As the gateway takes it: the hold outlives the task's deadline by an hour. */
const HOLD_TTL_MS = DEADLINE_MS + 3_600_000;

export interface SeededVideoTask {
  taskId: string;
  /** perCall + held seconds × perSecond: what a completion of the seconds asked captures. */
  heldMicros: bigint;
}

/**
 * Video tasks written the way the gateway's `POST /v1/videos` writes them, for tests of the worker on
 * its own: the family's rules plan the call, a row hold is taken under the task's public id, the row is
 * written with the call and its price snapshot, and the first step is enqueued after it. One account,
 * one key, one compat channel in front of the simulator.
 */
export class VideoTaskSeed {
  readonly accountId = 'acct_video_chaos';
  readonly keyId = 'key_video_chaos';
  private readonly holds: HoldService;
  private readonly store: TaskStore;

  constructor(
    pool: Pool,
    private readonly prisma: PrismaClient,
    private readonly queue: Queue,
  ) {
    this.holds = new HoldService(pool);
    this.store = new TaskStore(prisma, pool);
  }

  /** The account with `creditMicros` (a ledger credit, so that the books balance) and the channel. */
  async prepare(options: { creditMicros: bigint; simulatorUrl: string; masterKey: Buffer }): Promise<void> {
    const credits = new CreditService(this.prisma);
    await credits.createAccount({ id: this.accountId, name: 'video chaos' });
    await credits.credit({
      accountId: this.accountId,
      amountMicros: options.creditMicros,
      idempotencyKey: 'credit:video-chaos',
    });
    const secret = encryptSecret(SIMULATOR_COMPAT_KEY, { key: options.masterKey, version: 1 });
    await this.prisma.channel.create({
      data: {
        id: 'chan_compat_video',
        type: 'compat',
        name: 'compat videos',
        baseUrl: options.simulatorUrl,
        secretCiphertext: secret.ciphertext,
        secretKeyVersion: secret.version,
        secretTail: secret.tail,
      },
    });
  }

  /** One `delta-2` task of `seconds` at 720p; `enqueue: false` as when Redis was down at create. */
  async create(prompt: string, seconds = 4, { enqueue } = { enqueue: true }): Promise<SeededVideoTask> {
    const call = planDeltaCall(prompt, seconds);
    const taskId = `video_${randomBytes(16).toString('base64url')}`;
    const heldMicros = PER_CALL_MICROS + BigInt(call.seconds) * PER_SECOND_MICROS;
    const taken = await this.holds.take({
      requestId: taskId,
      accountId: this.accountId,
      keyId: this.keyId,
      model: 'delta-2',
      route: ROUTE,
      amount: heldMicros,
      ttlMs: HOLD_TTL_MS,
    });
    if (!taken.ok) throw new Error(`hold refused for ${taskId}`);
    await this.store.create({
      id: taskId,
      kind: 'video',
      keyId: this.keyId,
      accountId: this.accountId,
      model: 'delta-2',
      channelId: 'chan_compat_video',
      request: call,
      holdRequestId: taskId,
      priceSnapshot: toVideoTaskPriceSnapshot({
        resolution: call.resolution,
        perCallMicros: PER_CALL_MICROS,
        perSecondMicros: PER_SECOND_MICROS,
        heldSeconds: call.seconds,
      }),
      deadlineAt: new Date(Date.now() + DEADLINE_MS),
    });
    if (enqueue) await enqueueTaskStep(this.queue, taskId);
    return { taskId, heldMicros };
  }
}

function planDeltaCall(prompt: string, seconds: number): VideoCall {
  const rules = videoAdapterFor('compat');
  if (!rules) throw new Error('compat has no video rules registered');
  const request: VideoRequest = {
    model: 'delta-2',
    style: 'openai',
    prompt,
    seconds,
    size: '1280x720',
    resolution: '1280x720',
    images: [],
    clips: [],
    subjects: [],
    dimensions: {},
    extras: {},
  };
  const plan = rules.planVideo(request);
  if (!plan.ok) throw new Error(`delta-2 refused the test request: ${plan.param}: ${plan.message}`);
  return plan.call;
}
