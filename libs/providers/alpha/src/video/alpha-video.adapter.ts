import type { PlainKeyCredentials, VideoAdapter } from '@gateway/providers-core';
import { alphaVideoRules } from './alpha-video.rules';

/**
 * The alpha video capability: the family's rules only. The wire serves results through its
 * creation URLs (the gateway fetches them; no `openContent`) and has no characters; the task
 * adapter submits and polls the planned calls.
 */
export const alphaVideoAdapter: VideoAdapter<PlainKeyCredentials> = {
  servesVideoModel: alphaVideoRules.servesVideoModel,
  planVideo: alphaVideoRules.planVideo,
};
