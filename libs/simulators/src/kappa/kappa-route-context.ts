import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { WirePreamble } from '../simulated-preamble';
import { kappaCredentialFailure } from './kappa-auth';
import { kappaScriptedError } from './kappa-errors';

export type KappaApiVersion = 'v1beta' | 'v1';

/** What every kappa handler needs; one per API version prefix. */
export interface KappaRouteContext {
  settings: SimulatorSettings;
  state: SimulatorState;
  apiVersion: KappaApiVersion;
}

export function kappaPreamble(
  context: KappaRouteContext,
  handlesItself?: WirePreamble['handlesItself'],
): WirePreamble {
  return {
    credentialFailure: (call) => kappaCredentialFailure(call, context.settings.kappaKeys),
    scriptedError: kappaScriptedError,
    handlesItself,
  };
}
