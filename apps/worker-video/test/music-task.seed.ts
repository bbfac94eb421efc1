import { CreditService, HoldService } from '@gateway/billing';
import type { PrismaClient } from '@gateway/db';
import type { LambdaTaskRequest } from '@gateway/dialects';
import { DEFAULT_LAMBDA_KEY } from '@gateway/simulators';
import { encryptSecret } from '@gateway/routing';
import { enqueueTaskStep, MUSIC_TASK_KIND, TaskStore } from '@gateway/tasks';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

const MODEL = 'lambda-v4';
const ROUTE = '/lambda/submit/{action}';
const CHANNEL_ID = 'chan_lambda_music';
/** The perCall of the model's price row: a music task holds it and a completion captures it whole. */
const HOLD_MICROS = 30_000n;
const DEADLINE_MS = 10 * 60_000;
/** As the gateway takes it: the hold outlives the task's deadline by an hour. */
const HOLD_TTL_MS = DEADLINE_MS + 3_600_000;

export interface SeededMusicTask {
  taskId: string;
  heldMicros: bigint;
}

/**
 * Music tasks written the way the gateway's `POST /lambda/submit/music` writes them, for tests of the
 * worker on its own: a row hold of the model's perCall under the task's public id, the row with the
 * lambda call (no price snapshot: a completion captures the hold), then the first step job. One
 * account, one key, one lambda channel in front of the simulator. Each submission carries its task's
 * id as its `title`, so that the simulator's side can tell which task a submission was for.
 */
export class MusicTaskSeed {
  readonly accountId = 'acct_music_chaos';
  readonly keyId = 'key_music_chaos';
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
    await credits.createAccount({ id: this.accountId, name: 'music chaos' });
    await credits.credit({
      accountId: this.accountId,
      amountMicros: options.creditMicros,
      idempotencyKey: 'credit:music-chaos',
    });
    const secret = encryptSecret(DEFAULT_LAMBDA_KEY, { key: options.masterKey, version: 1 });
    await this.prisma.channel.create({
      data: {
        id: CHANNEL_ID,
        type: 'lambda',
        name: 'lambda music',
        baseUrl: options.simulatorUrl,
        secretCiphertext: secret.ciphertext,
        secretKeyVersion: secret.version,
        secretTail: secret.tail,
        models: [{ model: MODEL }],
      },
    });
  }

  /** One song of `prompt` (simulator directives go in it); `enqueue: false` as when Redis was down at create. */
  async create(prompt: string, { enqueue } = { enqueue: true }): Promise<SeededMusicTask> {
    const taskId = `music_${randomBytes(16).toString('base64url')}`;
    const taken = await this.holds.take({
      requestId: taskId,
      accountId: this.accountId,
      keyId: this.keyId,
      model: MODEL,
      route: ROUTE,
      amount: HOLD_MICROS,
      ttlMs: HOLD_TTL_MS,
    });
    if (!taken.ok) throw new Error(`hold refused for ${taskId}`);
    const request: LambdaTaskRequest = {
      kind: 'lambda',
      action: 'music',
      fields: { prompt, title: taskId },
      continueOf: null,
    };
    await this.store.create({
      id: taskId,
      kind: MUSIC_TASK_KIND,
      keyId: this.keyId,
      accountId: this.accountId,
      model: MODEL,
      channelId: CHANNEL_ID,
      request,
      holdRequestId: taskId,
      deadlineAt: new Date(Date.now() + DEADLINE_MS),
    });
    if (enqueue) await enqueueTaskStep(this.queue, taskId);
    return { taskId, heldMicros: HOLD_MICROS };
  }
}
