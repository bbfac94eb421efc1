import type { PlainKeyCredentials, VideoAdapter, VideoRules } from '@gateway/providers-core';
import { theta2VideoRules } from '../theta2/theta2-video.rules';
import { theta1xVideoRules } from './theta1x-video.rules';

/** The theta generations' rules; 2.0 (content[] with references and assets) adds its own beside 1.x. */
const THETA_RULES: readonly VideoRules[] = [theta1xVideoRules, theta2VideoRules];

/**
 * theta video on the eta data plane (upstreams.md §6.2): the family rules of each generation. The
 * type's task capability (thetaTaskAdapter) submits and polls the planned calls; results are URLs
 * (24 hours), so the wire serves no content of its own.
 */
export const thetaVideoAdapter: VideoAdapter<PlainKeyCredentials> = {
  servesVideoModel: (model) => THETA_RULES.some((rules) => rules.servesVideoModel(model)),
  planVideo(request) {
    const rules = THETA_RULES.find((candidate) => candidate.servesVideoModel(request.model));
    return rules
      ? rules.planVideo(request)
      : { ok: false, param: 'model', message: `${request.model} is not a theta video model` };
  },
};
