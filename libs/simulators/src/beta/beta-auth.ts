import { bearerKeyOf } from '../bearer-key.util';
import { SimulatedCall } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { receivedBetaCallOf, verifyBetaSignature } from './beta-signature.verifier';

/** `/` takes signed calls, `/bt` the relay's Bearer key (upstreams.md §4.1). */
export type BetaTransport = 'signed' | 'relay';

/** Who called (tasks are visible to their submitter only), or why the call is refused with 401. */
export type BetaCredential = { owner: string } | { refusal: string; code: string };

export function betaCredentialOf(
  call: SimulatedCall,
  settings: SimulatorSettings,
  transport: BetaTransport,
): BetaCredential {
  if (transport === 'relay') {
    const key = bearerKeyOf(call.request.headers);
    return key && settings.betaRelayKeys.has(key)
      ? { owner: `relay:${key}` }
      : { refusal: 'The Bearer key is missing or invalid.', code: 'InvalidAuthorization' };
  }
  const verification = verifyBetaSignature(receivedBetaCallOf(call), settings.betaSecrets);
  return 'refusal' in verification
    ? { refusal: verification.refusal, code: 'SignatureDoesNotMatch' }
    : { owner: `ak:${verification.accessKey}` };
}
