import { IsOptional, Matches } from '@gateway/providers-core';
import { BETA_DEFAULT_REGION, BETA_DEFAULT_SERVICE } from './beta-signature';

/** A region or service name as the signing scope writes it. */
const SCOPE_PART = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Per-channel settings of a beta channel: the signing scope's region and service (§4.2), for an
 * upstream deployed elsewhere than the wire's defaults. A relay channel signs nothing and ignores them.
 */
export class BetaChannelSettings {
  @IsOptional()
  @Matches(SCOPE_PART, { message: 'region must be lower-case letters, digits and dashes' })
  region?: string;

  @IsOptional()
  @Matches(SCOPE_PART, { message: 'service must be lower-case letters, digits and dashes' })
  service?: string;
}

export function betaSigningScopeOf(settings: BetaChannelSettings): { region: string; service: string } {
  return {
    region: settings.region ?? BETA_DEFAULT_REGION,
    service: settings.service ?? BETA_DEFAULT_SERVICE,
  };
}
