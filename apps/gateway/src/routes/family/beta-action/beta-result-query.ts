import type { BetaGetResultDto } from '@gateway/contracts';
import { parseJsonObject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { declaredBodyOf, type DeclaredBody } from '../../../platform/http/declared-body';
import { BETA_RESULT_BODY } from './beta-action.bodies';

/** A CVSync2AsyncGetResult body (upstreams.md §4.4), checked. */
export interface BetaResultQuery {
  reqKey: string;
  taskId: string;
  /** `req_json.return_url`: the answer lists the images' URLs beside their Base64. */
  returnUrl: boolean;
}

/** `body` as the route declared it, or as sent (then validated by the same declaration). */
export function toBetaResultQuery(body: DeclaredBody<BetaGetResultDto> | unknown): BetaResultQuery {
  const {
    req_key: reqKey,
    task_id: taskId,
    req_json: reqJson,
  } = declaredBodyOf(body, BETA_RESULT_BODY).fields();
  if (reqJson === undefined) return { reqKey, taskId, returnUrl: false };
  // A JSON-encoded string, not an object (§4.4).
  const options = parseJsonObject(reqJson);
  if (!options) throw GatewayError.invalidRequest('req_json must be a JSON-encoded object.', 'req_json');
  const returnUrl = options['return_url'];
  if (returnUrl !== undefined && typeof returnUrl !== 'boolean') {
    throw GatewayError.invalidRequest('req_json.return_url must be a boolean.', 'req_json');
  }
  return { reqKey, taskId, returnUrl: returnUrl === true };
}
