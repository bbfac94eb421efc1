import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { BetaGetResultDto } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { betaImageModelOf, betaVideoReqKeyOf, type BetaVideoMode } from '@gateway/dialects';
import { isJsonObject, UpstreamError, type TaskPollResult } from '@gateway/providers-core';
import { betaSuccess, type BetaAnswerContext } from '../../../platform/errors/beta-envelope.renderer';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import type { TaskRuntime } from '../../../tasks/task-runtime';
import { isPublicTaskId } from '../../../tasks/public-task-id.util';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';
import { costOf, videoContentUrl } from '../../modality/videos/video-object';
import type { BetaAnswer } from './beta-answer';
import { betaClientError, doneImageData, failedTaskError } from './beta-result-answer';
import { toBetaResultQuery, type BetaResultQuery } from './beta-result-query';
import { BETA_ROUTE_TASK_PREFIX } from './beta-submission.service';

/** A video row's status in §4.5's words while it is open. */
const VIDEO_STATUS_OF_ROW: Readonly<Record<string, string>> = {
  queued: 'in_queue',
  processing: 'generating',
};

/**
 * `CVSync2AsyncGetResult` through the gateway, for the caller's own tasks only. An open image task is
 * stepped once, exactly as worker-image steps it (one poll; on a terminal answer a compare-and-swap
 * transition, and the settlement by whoever wins it); then the row says what to answer. The images
 * of a completed task are read from the upstream again at each query: the upstream keeps them. A
 * video task is answered from its row, which worker-video keeps current: done, its `video_url` is the
 * gateway's own content URL (the upstream's lives an hour, §4.5).
 */
@Injectable()
export class BetaResultService {
  constructor(private readonly tasks: TaskRuntimeLoader) {}

  async getResult(
    key: ResolvedKey,
    body: DeclaredBody<BetaGetResultDto>,
    context: BetaAnswerContext,
    baseUrl: string,
  ): Promise<BetaAnswer> {
    const query = toBetaResultQuery(body);
    if (!isPublicTaskId(query.taskId, BETA_ROUTE_TASK_PREFIX)) return statusAnswer('not_found', context);
    const runtime = await this.tasks.runtime();
    let task = await runtime.store.findById(query.taskId).catch(taskStoreUnavailable);
    if (!task || !isOwnBetaTask(task, key)) return statusAnswer('not_found', context);
    if (task.kind === 'video') return videoAnswer(task, query, context, baseUrl);
    if (betaImageModelOf(query.reqKey) !== task.model) {
      throw GatewayError.invalidRequest(
        'req_key differs from the one the task was submitted with.',
        'req_key',
      );
    }
    if (task.status === 'queued' || task.status === 'processing') {
      // The step reads and writes the row too (and the channel's): the same 503 when they fail.
      await runtime.step(task.id).catch(taskStoreUnavailable);
      task = (await runtime.store.findById(task.id).catch(taskStoreUnavailable)) ?? task;
    }
    switch (task.status) {
      case 'completed':
        return this.completedAnswer(runtime, task, query, context);
      case 'failed':
      case 'cancelled':
        throw failedTaskError(task.failureReason);
      default:
        return {
          ...statusAnswer(task.upstreamHandle === null ? 'in_queue' : 'generating', context),
          openTask: task,
        };
    }
  }

  private async completedAnswer(
    runtime: TaskRuntime,
    task: Task,
    query: BetaResultQuery,
    context: BetaAnswerContext,
  ): Promise<BetaAnswer> {
    let result: TaskPollResult;
    try {
      result = await runtime.pollAgain(task);
    } catch (error) {
      if (error instanceof UpstreamError) throw betaClientError(error.failure);
      throw error;
    }
    if (result.state === 'completed') {
      const data = { ...doneImageData(result.outputs, query.returnUrl), ...costOf(task.costMicros) };
      return { httpStatus: 200, body: betaSuccess(data, context) };
    }
    // Done here, gone upstream (its records last 12 hours): the images cannot be read any more.
    return statusAnswer(result.state === 'failed' ? 'expired' : 'generating', context);
  }
}

/** A video task's answer from its row; the `req_key` must be the one it was submitted with. */
function videoAnswer(
  task: Task,
  query: BetaResultQuery,
  context: BetaAnswerContext,
  baseUrl: string,
): BetaAnswer {
  const call = isJsonObject(task.request) ? task.request : {};
  const submittedKey = betaVideoReqKeyOf(
    task.model,
    call['mode'] as BetaVideoMode,
    typeof call['resolution'] === 'string' ? call['resolution'] : null,
  );
  if (query.reqKey !== submittedKey) {
    throw GatewayError.invalidRequest('req_key differs from the one the task was submitted with.', 'req_key');
  }
  switch (task.status) {
    case 'completed':
      return {
        httpStatus: 200,
        body: betaSuccess(
          { status: 'done', video_url: videoContentUrl(baseUrl, task.id), ...costOf(task.costMicros) },
          context,
        ),
      };
    case 'failed':
    case 'cancelled':
      throw failedTaskError(task.failureReason);
    default:
      return { ...statusAnswer(VIDEO_STATUS_OF_ROW[task.status] ?? 'generating', context), openTask: task };
  }
}

/** Another account's task, or a task of another route, is not found: its existence is not revealed. */
function isOwnBetaTask(task: Task, key: ResolvedKey): boolean {
  return task.accountId === key.accountId && task.id.startsWith(`${BETA_ROUTE_TASK_PREFIX}_`);
}

function statusAnswer(status: string, context: BetaAnswerContext): BetaAnswer {
  return { httpStatus: 200, body: betaSuccess({ status }, context) };
}
