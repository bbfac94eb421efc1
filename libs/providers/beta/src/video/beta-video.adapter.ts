import type { VideoAdapter } from '@gateway/providers-core';
import type { BetaChannelSettings } from '../beta-channel.settings';
import type { BetaCredentials } from '../beta-credentials.parse';
import { betaVideoRules } from './beta-video.rules';

/**
 * beta video: the family rules. The type's task capability (betaTaskAdapter) submits and polls the
 * planned calls; results are URLs (an hour, §4.5), so the wire serves no content of its own.
 */
export const betaVideoAdapter: VideoAdapter<BetaCredentials, BetaChannelSettings> = {
  servesVideoModel: betaVideoRules.servesVideoModel,
  planVideo: betaVideoRules.planVideo,
};
