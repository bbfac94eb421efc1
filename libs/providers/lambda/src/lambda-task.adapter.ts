import {
  failedOrRethrown,
  isJsonObject,
  malformedAnswerError,
  type JsonHandle,
  type PlainKeyCredentials,
  type TaskAdapter,
  type TaskPollResult,
} from '@gateway/providers-core';
import {
  isLambdaTaskRequest,
  LAMBDA_ACTIONS,
  type LambdaAction,
  type LambdaTaskRequest,
} from '@gateway/dialects';
import { getLambda, postLambda } from './lambda-request.util';
import { fromLambdaTask } from './lambda-task-result.util';

/** What the gateway stores for a submitted lambda task: the upstream's id and the action it runs. */
export interface LambdaTaskHandle {
  taskId: string;
  action: LambdaAction;
}

/**
 * The lambda music wire's tasks (upstreams.md §9): submit on `/lambda/submit/{action}`, ask about one
 * task on `GET /lambda/fetch/{id}` or about many at once on `POST /lambda/fetch`, which is how the
 * worker polls them (pollMany). The wire has no idempotency key and no cancel.
 */
export const lambdaTaskAdapter: TaskAdapter<PlainKeyCredentials> = {
  async submit(call, context) {
    if (!isLambdaTaskRequest(call.request))
      throw new TypeError('a lambda task request must be a lambda call');
    const request = call.request;
    const data = await postLambda(
      context,
      `/lambda/submit/${request.action}`,
      submissionBody(request, call.upstreamModel),
    );
    if (typeof data !== 'string' || data === '') throw malformedAnswerError(200);
    const handle: LambdaTaskHandle = { taskId: data, action: request.action };
    return { handle: { ...handle } };
  },

  async poll(handle, context) {
    const task = lambdaTaskHandleOf(handle);
    try {
      const data = await getLambda(context, `/lambda/fetch/${encodeURIComponent(task.taskId)}`);
      if (!isJsonObject(data)) throw malformedAnswerError(200);
      return fromLambdaTask(data, task.action, context.logger);
    } catch (error) {
      return failedOrRethrown(error);
    }
  },

  async pollMany(handles, context) {
    const tasks = handles.map(lambdaTaskHandleOf);
    if (tasks.length === 0) return [];
    const data = await postLambda(context, '/lambda/fetch', { ids: tasks.map((task) => task.taskId) });
    if (!Array.isArray(data)) throw malformedAnswerError(200);
    const listed = new Map<string, Record<string, unknown>>();
    for (const entry of data) {
      if (isJsonObject(entry) && typeof entry.task_id === 'string') listed.set(entry.task_id, entry);
    }
    return tasks.map((task): TaskPollResult => {
      const entry = listed.get(task.taskId);
      return entry ? fromLambdaTask(entry, task.action, context.logger) : { state: 'pending' };
    });
  },
};

/**
 * The §9.3 body: the client's fields, `mv` for music (the channel's id of the row's model), and for a
 * continuation the upstream id of the task that made the clip.
 */
function submissionBody(request: LambdaTaskRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request.fields };
  if (request.action === 'music') body.mv = upstreamModel;
  if (request.continueOf !== null) body.task_id = lambdaTaskHandleOf(request.continueOf).taskId;
  return body;
}

/** The stored handle, checked: a row written by another version of this adapter fails loudly. */
export function lambdaTaskHandleOf(handle: JsonHandle): LambdaTaskHandle {
  if (
    isJsonObject(handle) &&
    typeof handle.taskId === 'string' &&
    typeof handle.action === 'string' &&
    (LAMBDA_ACTIONS as readonly string[]).includes(handle.action)
  ) {
    return { taskId: handle.taskId, action: handle.action as LambdaAction };
  }
  throw new TypeError('not a lambda task handle');
}
