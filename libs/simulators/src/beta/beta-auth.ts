import { bearerKeyOf } from '../bearer-key.util';
import { SimulatedCall } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { verifyBetaSignature } from './beta-signature.verifier';

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
  const verification = verifyBetaSignature(
    {
      method: call.request.method,
      paths: [...new Set([pathOf(call.request.url), pathOf(call.request.originalUrl)])],
      rawQuery: queryOf(call.request.url),
      headers: call.request.headers,
      body: call.rawBody,
    },
    settings.betaSecrets,
  );
  return 'refusal' in verification
    ? { refusal: verification.refusal, code: 'SignatureDoesNotMatch' }
    : { owner: `ak:${verification.accessKey}` };
}

function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
}

function queryOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? '' : url.slice(queryStart + 1);
}
