import { alphaChannelType } from '@gateway/providers-alpha';
import { betaChannelType } from '@gateway/providers-beta';
import { compatChannelType } from '@gateway/providers-compat';
import type { ChannelTypeDefinition } from '@gateway/providers-core';
import { etaChannelType } from '@gateway/providers-eta';
import { gammaChannelType } from '@gateway/providers-gamma';
import { kappaChannelType } from '@gateway/providers-kappa';
import { lambdaChannelType } from '@gateway/providers-lambda';
import { muChannelType } from '@gateway/providers-mu';
import { omegaChannelType } from '@gateway/providers-omega';

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
  alphaChannelType,
  muChannelType,
  omegaChannelType,
  gammaChannelType,
  lambdaChannelType,
];
