import { Directives } from './directives';
import { sendWireError } from './raw-response.util';
import { ScriptedError, WireError, scriptedErrorOf } from './scripted-error';
import { SimulatedCall } from './simulated-route';
import { pause } from './timing.util';

/** What a wire contributes to the steps every simulated route takes first. */
export interface WirePreamble {
  /** The wire's answer to a missing or wrong credential, or undefined when the key is accepted. */
  credentialFailure(call: SimulatedCall): WireError | undefined;
  scriptedError(scripted: ScriptedError): WireError;
  /** True when the route itself plays this scripted failure (mid-stream errors, blocked prompts). */
  handlesItself?(scripted: ScriptedError, directives: Directives): boolean;
}

/**
 * Directives, scripted latency, the credential check, then any scripted failure. Resolves to the
 * directives when the route should go on, or undefined once the request has been answered (or the
 * client has gone).
 */
export async function runPreamble(call: SimulatedCall, wire: WirePreamble): Promise<Directives | undefined> {
  const directives = call.exchange.directives(call.request.headers['x-sim'], call.rawBody);
  if (directives.latencyMs && !(await pause(directives.latencyMs, call.exchange.signal))) return undefined;
  const credentialFailure = wire.credentialFailure(call);
  if (credentialFailure) {
    sendWireError(call.response, credentialFailure);
    return undefined;
  }
  call.exchange.markAuthenticated();
  const scripted = scriptedErrorOf(directives);
  if (scripted && !wire.handlesItself?.(scripted, directives)) {
    await answerScriptedError(call, scripted, wire.scriptedError(scripted));
    return undefined;
  }
  return directives;
}

/** A timeout holds the connection silent for the hang time, then answers; other classes answer at once. */
async function answerScriptedError(
  call: SimulatedCall,
  scripted: ScriptedError,
  error: WireError,
): Promise<void> {
  if (scripted.errorClass === 'timeout' && !(await pause(scripted.hangMs, call.exchange.signal))) return;
  sendWireError(call.response, error);
}
