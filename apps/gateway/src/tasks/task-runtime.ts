import { GovernanceReservations, type SettlementService } from '@gateway/billing';
import { createPrismaClient, type PrismaClient, type Task } from '@gateway/db';
import type { GatewayLogger } from '@gateway/observability';
import { taskAdaptersByType } from '@gateway/providers';
import {
  systemClock,
  type AdapterContext,
  type JsonHandle,
  type TaskAdapter,
  type TaskPollResult,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import {
  bindTaskAdapter,
  createRegistryChannelConnector,
  PrismaTaskChannelResolver,
  RedisTaskChangePublisher,
  TaskCanceller,
  TaskSettlementService,
  TaskStepProcessor,
  TaskStore,
  toImageTaskPriceSnapshot,
  toVideoTaskPriceSnapshot,
  type BoundTaskAdapter,
  type ImageTaskPrice,
  type JsonObject,
  type OperatorTaskCancellation,
  type TaskCancellation,
  type TaskStepResult,
  type VideoTaskPrice,
} from '@gateway/tasks';
import type { RedisConnection } from '@gateway/redis';
import type { Pool } from 'pg';

export interface TaskRuntimeDependencies {
  /** The serving pool: Prisma reads and writes task rows through it. */
  pool: Pool;
  settlements: SettlementService;
  /** Master keys by version, to decrypt the secret of a task's channel. */
  keyring: ReadonlyMap<number, Buffer>;
  http: UpstreamHttpClient;
  logger: GatewayLogger;
  /** Where the changes this process commits (a cancel, an early poll's end) are announced. */
  redis: RedisConnection;
  redisPrefix: string;
}

/**
 * What the gateway's task routes share with the task workers: the task rows (TaskStore), their
 * settlement, and the workers' own step processor, so that a client's query that polls early makes
 * exactly the step a worker would make, with the same compare-and-swap transitions. Loaded by
 * TaskRuntimeLoader on the first task route call only.
 */
export class TaskRuntime {
  readonly store: TaskStore;
  readonly settlement: TaskSettlementService;
  private readonly prisma: PrismaClient;
  private readonly adapters: ReadonlyMap<string, TaskAdapter> = taskAdaptersByType();
  private readonly channels: PrismaTaskChannelResolver;
  private readonly processor: TaskStepProcessor;
  private readonly canceller: TaskCanceller;

  constructor(deps: TaskRuntimeDependencies) {
    this.prisma = createPrismaClient(deps.pool);
    this.store = new TaskStore(
      this.prisma,
      deps.pool,
      new RedisTaskChangePublisher(() => deps.redis, deps.redisPrefix, deps.logger),
    );
    this.settlement = new TaskSettlementService(
      deps.settlements,
      this.prisma,
      new GovernanceReservations(deps.pool),
    );
    this.channels = new PrismaTaskChannelResolver(
      this.prisma,
      createRegistryChannelConnector({
        keyring: deps.keyring,
        http: deps.http,
        clock: systemClock,
        logger: deps.logger,
      }),
    );
    this.processor = new TaskStepProcessor({
      store: this.store,
      adapters: this.adapters,
      channels: this.channels,
      releaseHold: (holdRequestId, reason) => this.settlement.releaseHold(holdRequestId, reason),
      settle: (task, outcome) => this.settlement.settle(task, outcome),
      clock: systemClock,
      logger: deps.logger,
    });
    this.canceller = new TaskCanceller({
      store: this.store,
      adapters: this.adapters,
      channels: this.channels,
      releaseHold: (holdRequestId, reason) => this.settlement.releaseHold(holdRequestId, reason),
      recordPoll: (task, result) => this.processor.recordPoll(task, result),
      logger: deps.logger,
    });
  }

  /** One step of the task, as a worker runs it: poll once and, on a terminal answer, transition and settle. */
  step(taskId: string): Promise<TaskStepResult> {
    return this.processor.runStep(taskId);
  }

  /**
   * Asks the upstream once more for a task that has ended there, without touching the row: the
   * upstream keeps a task's result for a while, and the gateway does not store it. Throws
   * UpstreamError when the upstream cannot be asked.
   */
  async pollAgain(task: Task): Promise<TaskPollResult> {
    if (task.upstreamHandle === null) throw new Error(`task ${task.id} has no upstream task to ask about`);
    const { adapter, context } = await this.bind(task);
    return adapter.poll(task.upstreamHandle as JsonHandle, context);
  }

  /**
   * A client's cancel of an unfinished task: free before the upstream took it or where its wire stops
   * it, refused otherwise (the task runs on and is billed). See TaskCanceller.
   */
  cancel(task: Task, failureReason: string): Promise<TaskCancellation> {
    return this.canceller.cancel(task, failureReason);
  }

  /** An operator's cancel: the row cancelled and the hold released always, the upstream stopped where it can be. */
  cancelForOperator(task: Task, failureReason: string): Promise<OperatorTaskCancellation> {
    return this.canceller.cancelForOperator(task, failureReason);
  }

  /**
   * The task's channel, to call its wire about a finished task (its content): the channel type and an
   * adapter context. Throws when the task has no channel or it no longer exists.
   */
  async connectChannel(task: Task): Promise<{ type: string; context: AdapterContext }> {
    const type = await this.channels.channelTypeOf(task);
    if (type === undefined) throw new Error(`task ${task.id} has no channel`);
    const { context } = await this.channels.connect(task);
    return { type, context };
  }

  /** The price snapshot an image task's row keeps, for its settlement. */
  imagePriceSnapshot(price: ImageTaskPrice): JsonObject {
    return toImageTaskPriceSnapshot(price);
  }

  /** The price snapshot a video task's row keeps, for its settlement. */
  videoPriceSnapshot(price: VideoTaskPrice): JsonObject {
    return toVideoTaskPriceSnapshot(price);
  }

  close(): Promise<void> {
    return this.prisma.$disconnect();
  }

  /** The task adapter of the task's channel and a context to call it with. */
  private async bind(task: Task): Promise<BoundTaskAdapter> {
    const bound = await bindTaskAdapter(task, this.adapters, this.channels);
    if (typeof bound === 'string') throw new Error(`task ${task.id}: ${bound}`);
    return bound;
  }
}
