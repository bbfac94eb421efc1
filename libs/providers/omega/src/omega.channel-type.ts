import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { omegaTaskAdapter } from './omega-task.adapter';
import { omegaVideoRules } from './omega-video.rules';

/**
 * omega video (upstreams.md §8): one API key sent as a Bearer token, no settings. Its videos are
 * asynchronous tasks whose result URL the query answers.
 */
export const omegaChannelType = defineChannelType({
  type: 'omega',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { task: omegaTaskAdapter, video: omegaVideoRules },
});
