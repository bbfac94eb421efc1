import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { compatImageAdapter } from './image/compat-image.adapter';
import { compatTextAdapter } from './compat-text.adapter';
import { compatVideoTaskAdapter } from './video/compat-video-task.adapter';
import { compatVideoAdapter } from './video/compat-video.adapter';

/**
 * The OpenAI-style wire (upstreams.md §2), first-party or relay: one Bearer key, no settings. Its
 * videos are tasks: the task capability runs the video calls the video capability plans.
 */
export const compatChannelType = defineChannelType({
  type: 'compat',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: {
    text: compatTextAdapter,
    image: compatImageAdapter,
    task: compatVideoTaskAdapter,
    video: compatVideoAdapter,
  },
});
