import { defineChannelType, NoChannelSettings } from '@gateway/providers-core';
import { parseGammaCredentials } from './gamma-credentials.parse';
import { gammaTaskAdapter } from './gamma-task.adapter';
import { gammaVideoAdapter } from './video/gamma-video.adapter';

/**
 * The gamma AIGC task API (upstreams.md §5): a `SubAppId|SecretId|SecretKey[|Region]` channel signs
 * every call with GAMMA-HMAC-SHA256; its videos are tasks, de-duplicated by `SessionId`.
 */
export const gammaChannelType = defineChannelType({
  type: 'gamma',
  parseCredentials: parseGammaCredentials,
  settings: NoChannelSettings,
  capabilities: { task: gammaTaskAdapter, video: gammaVideoAdapter },
});
