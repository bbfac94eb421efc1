import {
  failedOrRethrown,
  isVideoCall,
  malformedAnswerError,
  videoTaskHandleOf,
  type NoChannelSettings,
  type TaskAdapter,
  type VideoTaskHandle,
} from '@gateway/providers-core';
import {
  gammaSignedCredentialsOf,
  isGammaTokenCredentials,
  type GammaCredentials,
} from './gamma-credentials.parse';
import { callGammaAction } from './gamma-request.util';
import { gammaCreateBodyOf } from './gamma-submission';
import { fromGammaTaskDetail } from './gamma-task-result.util';
import { GAMMA_CREATE_ACTION, GAMMA_DESCRIBE_ACTION } from './gamma-wire.constants';
import {
  gammaOfficialHandleOf,
  pollGammaOfficial,
  submitGammaOfficial,
} from './official/gamma-official-task';

/**
 * The gamma AIGC task API (upstreams.md §5.4–§5.6), or the family's official-compatible wire (§5.8)
 * for a channel whose key is `AccessKey|SecretKey`: the parsed credentials choose. Submission is
 * idempotent: on the signed wire the task's own id is the `SessionId`, which the upstream remembers
 * for 3 days and answers with the task it already made; on the §5.8 wire it is the
 * `external_task_id`, unique per account‡ (the simulator answers a repeated one with its task). So
 * an interrupted submission is simply sent again. Neither wire has a cancel.
 */
export const gammaTaskAdapter: TaskAdapter<GammaCredentials, NoChannelSettings> = {
  idempotentSubmit: true,

  async submit(call, context) {
    if (!isVideoCall(call.request)) throw new TypeError('a gamma task is a video call');
    const channelCredentials = context.channel.credentials;
    if (isGammaTokenCredentials(channelCredentials)) {
      return submitGammaOfficial(call.request, call.upstreamModel, context, channelCredentials);
    }
    const credentials = gammaSignedCredentialsOf(channelCredentials);
    const body = gammaCreateBodyOf(
      call.request,
      call.upstreamModel,
      credentials.subAppId,
      context.submissionKey,
    );
    const response = await callGammaAction(context, GAMMA_CREATE_ACTION, body);
    const taskId = response.TaskId;
    if (typeof taskId !== 'string' || taskId === '') throw malformedAnswerError(200);
    const handle: VideoTaskHandle = {
      taskId,
      seconds: call.request.seconds,
      resolution: call.request.resolution,
    };
    return { handle };
  },

  async poll(handle, context) {
    const channelCredentials = context.channel.credentials;
    const official = gammaOfficialHandleOf(handle);
    try {
      if (official) {
        if (!isGammaTokenCredentials(channelCredentials))
          throw new TypeError('not an AccessKey|SecretKey channel');
        return await pollGammaOfficial(official, context, channelCredentials);
      }
      const task = videoTaskHandleOf(handle, 'a gamma task handle');
      const { subAppId } = gammaSignedCredentialsOf(channelCredentials);
      const body = { SubAppId: Number(subAppId), TaskId: task.taskId };
      const response = await callGammaAction(context, GAMMA_DESCRIBE_ACTION, body);
      return fromGammaTaskDetail(response, task, context.logger);
    } catch (error) {
      return failedOrRethrown(error);
    }
  },
};
