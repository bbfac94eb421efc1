import {
  isJsonObject,
  malformedAnswerError,
  type JsonHandle,
  type TaskPollResult,
  type TaskSubmission,
  type VideoCall,
  type VideoTaskHandle,
} from '@gateway/providers-core';
import type { GammaTokenCredentials } from '../gamma-credentials.parse';
import type { GammaContext } from '../gamma-request.util';
import { gammaOfficialCreateOf } from './gamma-official-body';
import { callGammaOfficial } from './gamma-official-request.util';
import { fromGammaOfficialTask } from './gamma-official-result';
import {
  gammaOfficialPathOf,
  isGammaOfficialEndpoint,
  type GammaOfficialEndpoint,
} from './gamma-official-wire';

/** A task submitted on the §5.8 wire: a video task handle, and the endpoint it is queried under. */
type GammaOfficialHandle = VideoTaskHandle & { wire: 'official'; endpoint: GammaOfficialEndpoint };

/** Creates the task on the §5.8 wire (the gateway's task id as `external_task_id`). */
export async function submitGammaOfficial(
  call: VideoCall,
  upstreamModel: string,
  context: GammaContext & { submissionKey: string },
  credentials: GammaTokenCredentials,
): Promise<TaskSubmission> {
  const { endpoint, body } = gammaOfficialCreateOf(call, upstreamModel, context.submissionKey);
  const data = await callGammaOfficial(context, credentials, {
    path: gammaOfficialPathOf(endpoint),
    body: JSON.stringify(body),
  });
  const taskId = data.task_id;
  if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
  const handle: GammaOfficialHandle = {
    wire: 'official',
    endpoint,
    taskId,
    seconds: call.seconds,
    resolution: call.resolution,
  };
  return { handle };
}

/** `GET {base}/v1/videos/{endpoint}/{task_id}`, read as a poll result. */
export async function pollGammaOfficial(
  handle: GammaOfficialHandle,
  context: GammaContext,
  credentials: GammaTokenCredentials,
): Promise<TaskPollResult> {
  const path = `${gammaOfficialPathOf(handle.endpoint)}/${encodeURIComponent(handle.taskId)}`;
  const data = await callGammaOfficial(context, credentials, { path });
  return fromGammaOfficialTask(data, handle, context.logger);
}

/** A stored handle of this wire, or undefined for any other value (a signed wire's handle has no `wire`). */
export function gammaOfficialHandleOf(handle: JsonHandle): GammaOfficialHandle | undefined {
  if (
    isJsonObject(handle) &&
    handle.wire === 'official' &&
    typeof handle.endpoint === 'string' &&
    isGammaOfficialEndpoint(handle.endpoint) &&
    typeof handle.taskId === 'string' &&
    typeof handle.seconds === 'number' &&
    (typeof handle.resolution === 'string' || handle.resolution === null)
  ) {
    return {
      wire: 'official',
      endpoint: handle.endpoint,
      taskId: handle.taskId,
      seconds: handle.seconds,
      resolution: handle.resolution,
    };
  }
  return undefined;
}
