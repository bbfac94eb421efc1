import { BETA_API_VERSION, BETA_GET_RESULT_ACTION, BETA_SUBMIT_ACTION } from '@gateway/dialects';
import { GatewayError } from '@gateway/errors';

export type BetaAction = 'submit' | 'getResult';

const ACTION_BY_NAME: Readonly<Record<string, BetaAction>> = {
  [BETA_SUBMIT_ACTION]: 'submit',
  [BETA_GET_RESULT_ACTION]: 'getResult',
};

/**
 * The action a `/bt` call names. `Action` and `Version` are both required, once each (interface spec
 * "Images", "Versioning"); anything else is refused before the body is looked at.
 */
export function betaActionOf(query: Readonly<Record<string, unknown>>): BetaAction {
  const action = query['Action'];
  const version = query['Version'];
  if (typeof action !== 'string' || action === '') {
    throw GatewayError.invalidRequest(
      `The query parameter Action is required, once: ${BETA_SUBMIT_ACTION} or ${BETA_GET_RESULT_ACTION}.`,
      'Action',
    );
  }
  if (typeof version !== 'string' || version === '') {
    throw GatewayError.invalidRequest(
      `The query parameter Version is required, once: ${BETA_API_VERSION}.`,
      'Version',
    );
  }
  const known = Object.hasOwn(ACTION_BY_NAME, action) ? ACTION_BY_NAME[action] : undefined;
  if (!known || version !== BETA_API_VERSION) {
    throw GatewayError.invalidRequest(
      `The action ${action} with version ${version} is not supported: use ${BETA_SUBMIT_ACTION} or ` +
        `${BETA_GET_RESULT_ACTION} with version ${BETA_API_VERSION}.`,
      known ? 'Version' : 'Action',
    );
  }
  return known;
}
