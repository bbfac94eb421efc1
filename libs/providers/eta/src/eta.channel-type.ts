import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { iotaImageAdapter } from './iota/iota-image.adapter';

/**
 * The eta platform's data plane (upstreams.md §6.1): one API key sent as a Bearer token, no settings.
 * The theta asset control plane (§6.5) will add its own base URL and an `AccessKey|SecretKey` pair
 * for BETA-HMAC-SHA256 signing as per-channel settings, beside the data-plane key; theta video tasks
 * (§6.2) will add the task capability.
 */
export const etaChannelType = defineChannelType({
  type: 'eta',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { image: iotaImageAdapter },
});
