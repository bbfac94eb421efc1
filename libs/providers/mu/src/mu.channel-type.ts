import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { muTaskAdapter } from './mu-task.adapter';
import { muVideoRules } from './mu-video.rules';

/**
 * mu video (upstreams.md §7): one API key sent as a Bearer token, no settings. Its videos are tasks;
 * the result comes from the file-retrieve call, so the type serves no content itself.
 */
export const muChannelType = defineChannelType({
  type: 'mu',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { task: muTaskAdapter, video: muVideoRules },
});
