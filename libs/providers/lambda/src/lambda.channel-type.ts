import { defineChannelType, NoChannelSettings, parsePlainKey } from '@gateway/providers-core';
import { lambdaTaskAdapter } from './lambda-task.adapter';

/**
 * The lambda music wire (upstreams.md §9): one API key sent as `Authorization: Bearer <key>`, no
 * settings. Music and lyrics are tasks, which the worker polls in batches.
 */
export const lambdaChannelType = defineChannelType({
  type: 'lambda',
  parseCredentials: parsePlainKey,
  settings: NoChannelSettings,
  capabilities: { task: lambdaTaskAdapter },
});
