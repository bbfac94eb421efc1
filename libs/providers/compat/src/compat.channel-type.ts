import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { compatImageAdapter } from './image/compat-image.adapter';
import { compatTextAdapter } from './compat-text.adapter';

/** The OpenAI-style wire (upstreams.md §2), first-party or relay: one Bearer key, no settings. */
export const compatChannelType = defineChannelType({
  type: 'compat',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { text: compatTextAdapter, image: compatImageAdapter },
});
