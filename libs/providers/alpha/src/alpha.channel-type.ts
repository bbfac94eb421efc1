import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { alphaTaskAdapter } from './alpha-task.adapter';
import { alphaVideoAdapter } from './video/alpha-video.adapter';

/**
 * The alpha official API (upstreams.md §3): one API key sent as `Authorization: Token <key>`, no
 * settings. Its videos are tasks: the video capability plans them, the task capability runs them.
 */
export const alphaChannelType = defineChannelType({
  type: 'alpha',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { task: alphaTaskAdapter, video: alphaVideoAdapter },
});
