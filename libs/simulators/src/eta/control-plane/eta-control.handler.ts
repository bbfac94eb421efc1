import { receivedBetaCallOf, verifyBetaSignature } from '../../beta/beta-signature.verifier';
import { parseJsonObject } from '../../json-body.util';
import { sendJson, sendWireError } from '../../raw-response.util';
import { runPreamble } from '../../simulated-preamble';
import { SimulatedHandler } from '../../simulated-route';
import { SimulatorSettings } from '../../simulator-options';
import { SimulatorState } from '../../simulator-state';
import { ETA_CONTROL_ACTIONS } from './eta-control-actions';
import {
  ETA_CONTROL_SCOPE,
  ETA_CONTROL_VERSION,
  etaControlError,
  etaControlInvalid,
  etaControlResult,
  etaControlScriptedError,
  newEtaControlIdentity,
} from './eta-control-envelope';

/** Where the simulator serves the control plane: a channel's `controlPlaneUrl` is `{sim}/eta-control`‡. */
export const ETA_CONTROL_PATH = '/eta-control/';

/**
 * The eta asset control plane (upstreams.md §6.5): `POST {ctl_base}/?Action=<Action>&Version=2024-01-01`,
 * signed with BETA-HMAC-SHA256 in the `cn-beijing`/`eta` scope and checked by the beta verifier (a
 * wrong secret, a tampered body, a stale date or another scope: 401 `SignatureDoesNotMatch`); then
 * scripted failures, then the action. A CreateAsset carrying `error_after=` (with `error=`) is
 * accepted and its processing fails after that many looks.
 */
export function etaControlHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    const query = call.request.query as Record<string, string | string[] | undefined>;
    const action = firstOf(query['Action']);
    const version = firstOf(query['Version']);
    const known = Object.hasOwn(ETA_CONTROL_ACTIONS, action);
    state.stats.countRoute(`eta:control:${known ? action : 'unknownAction'}`);
    const identity = newEtaControlIdentity(action, version);
    const verification = verifyBetaSignature(
      receivedBetaCallOf(call),
      settings.etaControlSecrets,
      Date.now(),
      ETA_CONTROL_SCOPE,
    );
    const directives = await runPreamble(call, {
      credentialFailure: () =>
        'refusal' in verification
          ? etaControlError(401, identity, 'SignatureDoesNotMatch', verification.refusal)
          : undefined,
      scriptedError: (scripted) => etaControlScriptedError(scripted, identity),
      handlesItself: (_scripted, scripted) => action === 'CreateAsset' && scripted.errorAfter !== undefined,
    });
    if (!directives || 'refusal' in verification) return;
    if (version !== ETA_CONTROL_VERSION || !known) {
      const message = `The action ${action || '(none)'} with version ${version || '(none)'} is not supported.`;
      return sendWireError(call.response, etaControlError(400, identity, 'InvalidActionOrVersion', message));
    }
    const body = parseJsonObject(call.rawBody);
    if (!body) return sendWireError(call.response, etaControlInvalid(identity, 'body', 'a JSON object.'));
    const outcome = ETA_CONTROL_ACTIONS[action]({
      library: state.etaAssets,
      owner: verification.accessKey,
      body,
      directives,
      identity,
    });
    if ('error' in outcome) return sendWireError(call.response, outcome.error);
    sendJson(call.response, 200, etaControlResult(identity, outcome.result));
  };
}

function firstOf(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
