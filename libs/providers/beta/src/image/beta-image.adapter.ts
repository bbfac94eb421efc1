import type { ImageGenerationCall, TaskImageAdapter } from '@gateway/providers-core';
import type { BetaChannelSettings } from '../beta-channel.settings';
import type { BetaCredentials } from '../beta-credentials.parse';
import { planBetaImage } from './beta-image.rules';
import { toBetaTaskRequest } from './beta-image-request.util';

/**
 * Images on the beta wire are tasks: the adapter translates the planned call into a beta task, the
 * type's task capability (betaTaskAdapter) submits and polls it, and the task's outputs are the
 * images (Base64 bytes with the upstream's URL beside them).
 */
export const betaImageAdapter: TaskImageAdapter<BetaCredentials, BetaChannelSettings> = {
  mode: 'task',
  plan: planBetaImage,
  toGenerationTask(call: ImageGenerationCall) {
    return { upstreamModel: call.upstreamModel, request: toBetaTaskRequest(call) };
  },
};
