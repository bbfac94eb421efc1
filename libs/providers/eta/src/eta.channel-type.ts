import { defineChannelType, parsePlainKey } from '@gateway/providers-core';
import { etaAssetAdapter } from './assets/eta-asset.adapter';
import { EtaChannelSettings } from './eta-channel.settings';
import { iotaImageAdapter } from './iota/iota-image.adapter';
import { thetaTaskAdapter } from './theta/theta-task.adapter';
import { thetaVideoAdapter } from './theta/theta-video.adapter';

/**
 * The eta platform's data plane (upstreams.md §6.1): one API key sent as a Bearer token. The theta
 * asset control plane (§6.5) is a second endpoint, configured in the channel's settings (its base URL
 * and an `AccessKey|SecretKey` pair for BETA-HMAC-SHA256 signing). theta video runs as tasks (§6.2):
 * the video capability plans, the task capability submits, polls and cancels.
 */
export const etaChannelType = defineChannelType({
  type: 'eta',
  parseCredentials: parsePlainKey,
  settings: EtaChannelSettings,
  capabilities: {
    image: iotaImageAdapter,
    task: thetaTaskAdapter,
    video: thetaVideoAdapter,
    asset: etaAssetAdapter,
  },
});
