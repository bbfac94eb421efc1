import { betaChannelType } from '@gateway/providers-beta';
import { compatChannelType } from '@gateway/providers-compat';
import type { ChannelTypeDefinition } from '@gateway/providers-core';
import { etaChannelType } from '@gateway/providers-eta';
import { kappaChannelType } from '@gateway/providers-kappa';

/**
 * Every channel type the gateway can call, one line each. Adding a channel type is its folder plus
 * one line here. Known types without a line (see CHANNEL_TYPES) may have channel rows, but nothing
 * routes to them until their definition lands.
 */
export const CHANNEL_TYPE_DEFINITIONS: readonly ChannelTypeDefinition[] = [
  kappaChannelType,
  compatChannelType,
  etaChannelType,
  betaChannelType,
];
