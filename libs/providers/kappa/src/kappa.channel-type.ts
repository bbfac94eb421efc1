import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { kappaImageAdapter } from './image/kappa-image.adapter';
import { kappaTextAdapter } from './kappa-text.adapter';

/** The native generation wire (upstreams.md §1): one API key in `x-vendor-api-key`, no settings. */
export const kappaChannelType = defineChannelType({
  type: 'kappa',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { text: kappaTextAdapter, image: kappaImageAdapter },
});
