import { pathOfUrl } from '../request-url.util';
import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { SimulatorSettings } from '../simulator-options';
import { gammaError } from './gamma-errors';
import { verifyGammaSignature } from './gamma-signature.verifier';

/** Who called (the SubAppId owns its tasks), or the wire's refusal. */
export type GammaCredential = { owner: string } | { refusal: WireError };

/** The §5.2 verifier over the received call; a refusal is the wire's HTTP 200 `AuthFailure.*`. */
export function gammaCredentialOf(
  call: SimulatedCall,
  settings: SimulatorSettings,
  requestId: string,
): GammaCredential {
  const verification = verifyGammaSignature(
    {
      paths: [...new Set([pathOfUrl(call.request.url), pathOfUrl(call.request.originalUrl)])],
      headers: call.request.headers,
      body: call.rawBody,
    },
    settings.gammaKeys,
  );
  if ('code' in verification)
    return { refusal: gammaError(verification.code, verification.message, requestId) };
  return { owner: verification.key.subAppId };
}
