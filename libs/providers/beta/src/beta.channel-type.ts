import { defineChannelType } from '@gateway/providers-core';
import { BetaChannelSettings } from './beta-channel.settings';
import { parseBetaCredentials } from './beta-credentials.parse';
import { betaTaskAdapter } from './beta-task.adapter';
import { betaImageAdapter } from './image/beta-image.adapter';
import { betaVideoAdapter } from './video/beta-video.adapter';

/**
 * The beta Action API (upstreams.md §4): an `AccessKey|SecretKey` channel signs every call with
 * BETA-HMAC-SHA256; an `sk-` key is a relay of the same wire (Bearer, `/bt`). Its images and videos are tasks.
 */
export const betaChannelType = defineChannelType({
  type: 'beta',
  parseCredentials: parseBetaCredentials,
  settings: BetaChannelSettings,
  capabilities: { task: betaTaskAdapter, image: betaImageAdapter, video: betaVideoAdapter },
});
