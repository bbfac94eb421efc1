import { findUnstorableText, UNSTORABLE_TEXT_PROBLEM, type BetaSubmitTaskDto } from '@gateway/contracts';
import {
  BETA_IMAGE_MODELS,
  BETA_TIER_AREA,
  betaImageModelOf,
  betaImageReqKeyOf,
  betaSubmissionArea,
  betaTierOfArea,
  isBetaResolutionTier,
  type BetaResolutionTier,
  type BetaTaskRequest,
} from '@gateway/dialects';
import { isJsonObject, parseJsonObject, type SerialisableObject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { declaredBodyOf, type DeclaredBody } from '../../../platform/http/declared-body';
import { BETA_SUBMIT_BODY } from './beta-action.bodies';

/** A `/bt` submission checked and priced: the model its req_key names, the task to submit, its tier. */
export interface BetaSubmission {
  model: string;
  taskRequest: BetaTaskRequest;
  tier: BetaResolutionTier;
}

/** The `req_json` options a result fetch takes from the client; `return_url` is the adapter's own. */
const RESULT_OPTION_KEYS = ['logo_info', 'aigc_meta'] as const;

/**
 * Reads a CVSync2AsyncSubmitTask body (upstreams.md §4.3). The fields the gateway checks are checked;
 * every other field passes to the upstream as sent. Two fields are the gateway's own and never sent:
 * `resolution` (interface spec: 1k, 2k or 4k, sent as the tier's `size` area) and `req_json` (the
 * options every result of the task is fetched with). `body` as the route declared it, or as sent
 * (then validated by the same declaration). Throws the client's 400, or the 404 of a
 * `req_key` it does not serve, which `notServed` may word for a model another route serves.
 */
export function toBetaSubmission(
  body: DeclaredBody<BetaSubmitTaskDto> | unknown,
  notServed: (reqKey: string) => GatewayError | undefined = () => undefined,
): BetaSubmission {
  const declared = declaredBodyOf(body, BETA_SUBMIT_BODY);
  declared.fields();
  // The fields the DTO does not name pass to the upstream as sent: read from the body itself.
  const {
    req_key: reqKey,
    resolution,
    req_json: reqJson,
    ...fields
  } = declared.raw as Record<string, unknown>;
  const model = betaImageModelOf(reqKey as string);
  if (!model) {
    // A model's name served on another route is told where; any other key gets the table.
    const elsewhere = notServed(reqKey as string);
    if (elsewhere) throw elsewhere;
    const served = BETA_IMAGE_MODELS.map((name) => `${betaImageReqKeyOf(name)} (${name})`).join(', ');
    throw new GatewayError('model_not_found', `req_key ${String(reqKey)} is not served; served: ${served}.`, {
      param: 'req_key',
    });
  }
  const submission = fields as SerialisableObject;
  checkReferences(submission);
  checkSize(submission, resolution);
  if (typeof resolution === 'string' && isBetaResolutionTier(resolution)) {
    submission.size = BETA_TIER_AREA[resolution];
  }
  return {
    model,
    taskRequest: { submission, resultOptions: resultOptionsOf(reqJson) },
    tier: betaTierOfArea(betaSubmissionArea(submission)),
  };
}

function checkReferences(submission: SerialisableObject): void {
  const { image_urls: urls, binary_data_base64: base64, prompt } = submission;
  if (urls !== undefined && base64 !== undefined) {
    throw GatewayError.invalidRequest(
      'image_urls and binary_data_base64 cannot be sent together.',
      'image_urls',
    );
  }
  const references = (Array.isArray(urls) ? urls.length : 0) + (Array.isArray(base64) ? base64.length : 0);
  if (references === 0 && (typeof prompt !== 'string' || prompt.trim() === '')) {
    throw GatewayError.invalidRequest('prompt is required without reference images.', 'prompt');
  }
}

function checkSize(submission: SerialisableObject, resolution: unknown): void {
  const { width, height, size } = submission;
  if ((width === undefined) !== (height === undefined)) {
    throw GatewayError.invalidRequest(
      'width and height must be given together.',
      width === undefined ? 'width' : 'height',
    );
  }
  if (resolution !== undefined && (size !== undefined || width !== undefined)) {
    throw GatewayError.invalidRequest(
      'resolution cannot be combined with size or width and height.',
      'resolution',
    );
  }
}

/** `req_json` as the §4.4 query takes it: a JSON-encoded object; only its result options are kept. */
function resultOptionsOf(reqJson: unknown): SerialisableObject {
  if (reqJson === undefined) return {};
  const options = typeof reqJson === 'string' ? parseJsonObject(reqJson) : undefined;
  if (!options) throw GatewayError.invalidRequest('req_json must be a JSON-encoded object.', 'req_json');
  const kept: SerialisableObject = {};
  for (const key of RESULT_OPTION_KEYS) {
    const value = options[key];
    if (value === undefined) continue;
    if (!isJsonObject(value))
      throw GatewayError.invalidRequest(`req_json.${key} must be an object.`, 'req_json');
    kept[key] = value as SerialisableObject;
  }
  // Kept in the task row's jsonb request too, once decoded: escapes in the encoded text count.
  const unstorable = findUnstorableText(kept);
  if (unstorable !== undefined) {
    throw GatewayError.invalidRequest(`req_json.${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, 'req_json');
  }
  return kept;
}
