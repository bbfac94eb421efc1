import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { taskAdapterFor } from '@gateway/providers';
import { isJsonObject, type JsonHandle, type TaskOutput } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { firstFaultRefused } from '../../../platform/http/body-validation.util';
import type { BodyDeclaration, DeclaredBody } from '../../../platform/http/declared-body';
import { LOGGER } from '../../../platform/infrastructure/tokens';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { LambdaFetchRequestDto } from './lambda-request.dto';
import { toLambdaTaskView } from './music-task.view';
import { OwnedMusicTasks } from './owned-music-tasks.service';

/** A fetch's answer, and the rows it was made from (for the poll hint). */
export interface MusicFetchAnswer<View = Record<string, unknown>> {
  tasks: readonly Task[];
  view: View;
}

/**
 * The music task queries (`GET /lambda/fetch/{id}`, `POST /lambda/fetch`), for the caller's own tasks.
 * Status and progress come from the rows, which worker-video keeps current; nothing here moves a task
 * on. The clips of a completed task are read from its upstream again at each query (the upstream
 * keeps them, the gateway does not store them): one single query for one task, one batch query per
 * channel for a batch.
 */
@Injectable()
export class MusicFetchService {
  constructor(
    private readonly tasks: TaskRuntimeLoader,
    private readonly owned: OwnedMusicTasks,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * One task; a 404 for one that is not the caller's, a 502 when its clips cannot be read. The row
   * comes back beside its view, for the poll hint.
   */
  async one(key: ResolvedKey, taskId: string, baseUrl: string): Promise<MusicFetchAnswer> {
    const task = await this.owned.find(key, taskId);
    if (task.status !== 'completed')
      return { tasks: [task], view: toLambdaTaskView(task, undefined, baseUrl) };
    const runtime = await this.tasks.runtime();
    let polled;
    try {
      polled = await runtime.pollAgain(task);
    } catch (error) {
      throw new GatewayError('bad_gateway', 'The upstream could not be asked for the clips of this task.', {
        cause: error,
      });
    }
    return {
      tasks: [task],
      view: toLambdaTaskView(task, polled.state === 'completed' ? polled.outputs : [], baseUrl),
    };
  }

  /**
   * The caller's tasks among `{ids}` (at most MAX_FETCH_IDS), in the order asked; other ids are left
   * out. A channel whose upstream cannot be asked leaves its completed tasks without clips.
   */
  async many(
    key: ResolvedKey,
    body: DeclaredBody<LambdaFetchRequestDto>,
    baseUrl: string,
  ): Promise<MusicFetchAnswer<Record<string, unknown>[]>> {
    const tasks = await this.owned.findMany(key, body.fields().ids);
    const outputs = await this.completedOutputs(tasks.filter((task) => task.status === 'completed'));
    return { tasks, view: tasks.map((task) => toLambdaTaskView(task, outputs.get(task.id), baseUrl)) };
  }

  /** What the upstream shows now of each completed task: one batch query per channel. */
  private async completedOutputs(tasks: readonly Task[]): Promise<Map<string, readonly TaskOutput[]>> {
    const outputs = new Map<string, readonly TaskOutput[]>();
    const byChannel = new Map<string, Task[]>();
    for (const task of tasks) {
      if (task.channelId === null || task.upstreamHandle === null) continue;
      byChannel.set(task.channelId, [...(byChannel.get(task.channelId) ?? []), task]);
    }
    const runtime = await this.tasks.runtime();
    await Promise.all(
      [...byChannel].map(async ([channelId, channelTasks]) => {
        try {
          const { type, context } = await runtime.connectChannel(channelTasks[0]);
          const results = await taskAdapterFor(type)?.pollMany?.(
            channelTasks.map((task) => task.upstreamHandle as JsonHandle),
            context,
          );
          results?.forEach((result, index) => {
            if (result.state === 'completed') outputs.set(channelTasks[index].id, result.outputs);
          });
        } catch (error) {
          this.logger.warn({ err: error, channelId }, 'clips of completed music tasks could not be read');
        }
      }),
    );
    return outputs;
  }
}

/**
 * The batch fetch's body, `{"ids": [...]}`: a list of at most MAX_FETCH_IDS strings; a 400 naming
 * `ids` otherwise, in the family's words.
 */
export const LAMBDA_FETCH_BODY: BodyDeclaration<LambdaFetchRequestDto> = {
  dto: LambdaFetchRequestDto,
  validate: (dto, body) => {
    if (!isJsonObject(body))
      throw GatewayError.invalidRequest('The body must be a JSON object with ids.', 'ids');
    return firstFaultRefused(dto, body);
  },
};
