import { CreditService, HoldService } from '@gateway/billing';
import { encryptSecret } from '@gateway/routing';
import { enqueueTaskStep, TaskStore, type NewTask } from '@gateway/tasks';
import { randomBytes } from 'node:crypto';
import type { WorkerVideoHarness } from './worker-video-harness';

const DEADLINE_MS = 10 * 60_000;
/** As the gateway takes it: the hold outlives the task's deadline by an hour. */
const HOLD_TTL_MS = DEADLINE_MS + 3_600_000;

export interface SeededTask {
  taskId: string;
  /** What the task's hold took: what a completion of what was asked captures. */
  heldMicros: bigint;
}

/** The channel in front of the simulator that a seed's tasks are created for. */
export interface SeedChannel {
  type: string;
  /** The upstream key, encrypted into the row under the workers' master key. */
  secret: string;
  /** The models the channel serves, where its type does not serve them all. */
  models?: { model: string }[];
}

/** One task as the gateway's create route plans it, before its hold is taken. */
export interface PlannedTask {
  kind: string;
  model: string;
  /** The public route the hold is taken for. */
  route: string;
  heldMicros: bigint;
  request: NewTask['request'];
  priceSnapshot?: NewTask['priceSnapshot'];
}

/**
 * Tasks written the way the gateway's create routes write them, for tests of the worker on its own: a
 * row hold under the task's public id, the row, then the first step job. One account, one key and one
 * channel, all named after the seed's name (`acct_video_chaos`, `chan_compat_video`, task ids `video_…`).
 */
export class TaskSeed {
  readonly accountId: string;
  readonly keyId: string;
  private readonly channelId: string;
  private readonly holds: HoldService;
  private readonly store: TaskStore;

  constructor(
    private readonly harness: WorkerVideoHarness,
    private readonly name: string,
    private readonly channel: SeedChannel,
  ) {
    this.accountId = `acct_${name}_chaos`;
    this.keyId = `key_${name}_chaos`;
    this.channelId = `chan_${channel.type}_${name}`;
    this.holds = new HoldService(harness.pool);
    this.store = new TaskStore(harness.prisma, harness.pool);
  }

  /** The account with `creditMicros` (a ledger credit, so that the books balance) and the channel. */
  async prepare(options: { creditMicros: bigint; simulatorUrl: string }): Promise<void> {
    const credits = new CreditService(this.harness.prisma);
    await credits.createAccount({ id: this.accountId, name: `${this.name} chaos` });
    await credits.credit({
      accountId: this.accountId,
      amountMicros: options.creditMicros,
      idempotencyKey: `credit:${this.name}-chaos`,
    });
    const secret = encryptSecret(this.channel.secret, { key: this.harness.masterKey, version: 1 });
    await this.harness.prisma.channel.create({
      data: {
        id: this.channelId,
        type: this.channel.type,
        name: `${this.channel.type} ${this.name}`,
        baseUrl: options.simulatorUrl,
        secretCiphertext: secret.ciphertext,
        secretKeyVersion: secret.version,
        secretTail: secret.tail,
        models: this.channel.models,
      },
    });
  }

  /**
   * Takes the hold of the task `plan` makes for a new id, writes its row, then enqueues its first step;
   * `enqueue: false` as when Redis was down at create.
   */
  protected async write(
    plan: (taskId: string) => PlannedTask,
    { enqueue } = { enqueue: true },
  ): Promise<SeededTask> {
    const taskId = `${this.name}_${randomBytes(16).toString('base64url')}`;
    const planned = plan(taskId);
    const taken = await this.holds.take({
      requestId: taskId,
      accountId: this.accountId,
      keyId: this.keyId,
      model: planned.model,
      route: planned.route,
      amount: planned.heldMicros,
      ttlMs: HOLD_TTL_MS,
    });
    if (!taken.ok) throw new Error(`hold refused for ${taskId}`);
    await this.store.create({
      id: taskId,
      kind: planned.kind,
      keyId: this.keyId,
      accountId: this.accountId,
      model: planned.model,
      channelId: this.channelId,
      request: planned.request,
      holdRequestId: taskId,
      priceSnapshot: planned.priceSnapshot,
      deadlineAt: new Date(Date.now() + DEADLINE_MS),
    });
    if (enqueue) await enqueueTaskStep(this.harness.queue, taskId);
    return { taskId, heldMicros: planned.heldMicros };
  }
}
