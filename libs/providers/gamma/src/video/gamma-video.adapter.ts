import type { NoChannelSettings, VideoAdapter } from '@gateway/providers-core';
import type { GammaCredentials } from '../gamma-credentials.parse';
import { planGammaVideo, servesGammaVideoModel } from './gamma-video.rules';

/**
 * gamma's video capability: the family rules only. The wire serves its results through short-lived
 * URLs (upstreams.md §5.5), so the gateway fetches those; its task adapter submits and polls.
 */
export const gammaVideoAdapter: VideoAdapter<GammaCredentials, NoChannelSettings> = {
  servesVideoModel: servesGammaVideoModel,
  planVideo: planGammaVideo,
};
