import { assetRecord, toLambdaTaskView, toVideoObject } from '@gateway/contracts';
import type { Asset, PrismaClient, Task } from '@gateway/db';
import { isJsonObject } from '@gateway/providers-core';
import type { WebhookEventType } from '../webhook-event-types';

/** The `data` of an event about a task of one kind: the task as its own GET route renders it. */
export type TaskDataRenderer = (
  task: Task,
  baseUrl: string,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What a rendered event is about, read from the event row. */
export interface EventSubject {
  type: WebhookEventType | string;
  subjectId: string;
  createdAt: Date;
}

/**
 * How long an event waits for its task's settlement to be recorded (the task's `cost_micros`, which its
 * GET shows once settled). The settlement follows the terminal transition at once, in another
 * statement; this bounds the wait when its writer died between the two (the sweep settles it later).
 */
export const SETTLEMENT_WAIT_MS = 30_000;

/**
 * Renders the `data` of events from the rows they are about, when the event is first delivered (the
 * body is then kept on the event, so every attempt and endpoint gets the same bytes), once the task's
 * settlement is recorded. Renderers are keyed by kind, or by kind and id prefix (`image:bt`): an
 * asynchronous image job whose GET renders otherwise than a `/bt` task registers its own.
 */
export class EventDataRenderer {
  private readonly taskRenderers: Map<string, TaskDataRenderer>;

  constructor(
    private readonly prisma: Pick<PrismaClient, 'task' | 'asset'>,
    private readonly baseUrl: string,
    overrides: Readonly<Record<string, TaskDataRenderer>> = {},
  ) {
    this.taskRenderers = new Map(Object.entries({ ...DEFAULT_TASK_RENDERERS, ...overrides }));
  }

  /** The event's `data`; undefined while the task's settlement is still to be recorded (ask again soon). */
  async render(subject: EventSubject, now = Date.now()): Promise<Record<string, unknown> | undefined> {
    if (subject.type.startsWith('asset.')) {
      const asset = await this.prisma.asset.findUnique({ where: { id: subject.subjectId } });
      return asset ? assetData(asset) : gone(subject.subjectId);
    }
    const task = await this.prisma.task.findUnique({ where: { id: subject.subjectId } });
    if (!task) return gone(subject.subjectId);
    const unsettled = task.holdRequestId !== null && task.costMicros === null;
    if (unsettled && now - subject.createdAt.getTime() < SETTLEMENT_WAIT_MS) return undefined;
    return this.rendererOf(task)(task, this.baseUrl);
  }

  /** By kind and id prefix (`image:bt`), then by kind: one kind's routes may render their tasks apart. */
  private rendererOf(task: Task): TaskDataRenderer {
    const prefix = task.id.slice(0, Math.max(0, task.id.indexOf('_')));
    return (
      this.taskRenderers.get(`${task.kind}:${prefix}`) ?? this.taskRenderers.get(task.kind) ?? neutralTaskData
    );
  }
}

/** `GET /v1/videos/{id}`'s video object (the same for a `/bt` video: it is a video task). */
function videoData(task: Task, baseUrl: string): Record<string, unknown> {
  return { ...toVideoObject(task, baseUrl) };
}

/**
 * `GET /lambda/fetch/{id}`'s task, `id` added. Its clips are not in it: the music routes read them
 * from the upstream at each query (the gateway does not keep them), which a webhook does not do; the
 * client fetches them with that route.
 */
function musicData(task: Task, baseUrl: string): Record<string, unknown> {
  return { id: task.id, ...toLambdaTaskView(task, undefined, baseUrl) };
}

/**
 * An image task: its id, status and model, and its error once failed. The images are not in it: a
 * `/bt` query answers them as Base64 read from the upstream again, too large for an event; the
 * client reads them with the task's own query.
 */
function imageData(task: Task): Record<string, unknown> {
  return { ...neutralTaskData(task), object: 'image.task' };
}

function neutralTaskData(task: Task): Record<string, unknown> {
  return {
    id: task.id,
    object: `${task.kind}.task`,
    model: task.model,
    status: task.status,
    created_at: unixSeconds(task.createdAt),
    completed_at: task.completedAt ? unixSeconds(task.completedAt) : null,
    error:
      task.status === 'failed' || task.status === 'cancelled'
        ? {
            message:
              task.failureReason ?? `the task ${task.status === 'failed' ? 'failed' : 'was cancelled'}`,
          }
        : null,
    ...(isJsonObject(task.request) && typeof task.request['prompt'] === 'string'
      ? { prompt: task.request['prompt'] }
      : {}),
  };
}

/** `GetAsset`'s record (theta assets), `id` added beside its `Id`. */
function assetData(asset: Asset): Record<string, unknown> {
  return { id: asset.id, ...assetRecord(asset) };
}

/** The row is gone (the retention sweep deleted it before the event went out): its id only. */
function gone(subjectId: string): Record<string, unknown> {
  return { id: subjectId };
}

const DEFAULT_TASK_RENDERERS: Readonly<Record<string, TaskDataRenderer>> = {
  video: videoData,
  music: musicData,
  image: imageData,
};

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
