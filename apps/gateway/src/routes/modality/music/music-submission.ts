import {
  checkBoolean,
  checkNumber,
  checkString,
  findStoredFieldProblem,
  findUnstorableText,
  STORED_FIELD_LIMITS,
  UNSTORABLE_TEXT_PROBLEM,
  type ValueCheck,
} from '@gateway/contracts';
import { LAMBDA_DEFAULT_MODEL, type LambdaAction } from '@gateway/dialects';
import { isJsonObject, type SerialisableObject } from '@gateway/providers-core';
import { GatewayError } from '../../../platform/errors/gateway-error';

/** A `/lambda/submit/{action}` body read and checked: what to route, price and store. */
export interface MusicSubmission {
  action: LambdaAction;
  /** `mv`, or the wire's default: the name the task is routed and priced by (the channel maps it). */
  model: string;
  /** The body without `mv` and `task_id`, passed to the upstream as sent. */
  fields: SerialisableObject;
  /** A continuation's `task_id`: the gateway's id of the task that made the clip. */
  continueTaskId?: string;
}

const { promptLength, labelLength, identifierLength } = STORED_FIELD_LIMITS;
const identifier: ValueCheck = (value) => checkString(value, { nonEmpty: true, maxLength: identifierLength });

/**
 * The §9.3 fields the gateway checks, with their rule and cap (the body is kept on the task row); any
 * other field passes to the upstream as sent, bounded in number and size (STORED_FIELD_LIMITS).
 */
const FIELD_CHECKS: ReadonlyArray<readonly [field: string, check: ValueCheck]> = [
  ['prompt', (value) => checkString(value, { maxLength: promptLength })],
  ['description_prompt', (value) => checkString(value, { maxLength: promptLength })],
  ['title', (value) => checkString(value, { maxLength: labelLength })],
  ['tags', (value) => checkString(value, { maxLength: labelLength })],
  ['mv', identifier],
  ['make_instrumental', checkBoolean],
  ['continue_clip_id', identifier],
  ['continue_at', (value) => checkNumber(value, { min: 0 })],
  ['task_id', identifier],
];
const NAMED_FIELDS: ReadonlySet<string> = new Set(FIELD_CHECKS.map(([field]) => field));

const CONTINUATION_FIELDS = ['continue_clip_id', 'continue_at', 'task_id'] as const;

/**
 * Reads a submit body by upstreams.md §9.3: the named fields' types, a prompt for lyrics (music needs
 * a prompt or a description), and a continuation's three fields together, for music only. Nothing
 * Postgres cannot store (the body is kept on the task row). Throws the client's 400 naming the field.
 */
export function toMusicSubmission(action: LambdaAction, body: unknown): MusicSubmission {
  if (!isJsonObject(body)) throw GatewayError.invalidRequest('The body must be a JSON object.');
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw GatewayError.invalidRequest(`${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, unstorable);
  }
  for (const [field, check] of FIELD_CHECKS) {
    const problem = body[field] === undefined ? undefined : check(body[field]);
    if (problem !== undefined) throw GatewayError.invalidRequest(`${field} ${problem}.`, field);
  }
  const tooLarge = findStoredFieldProblem(body, { named: NAMED_FIELDS });
  if (tooLarge) throw GatewayError.invalidRequest(`${tooLarge.message}.`, tooLarge.field);
  checkPrompts(action, body);
  const continueTaskId = continuationOf(action, body);
  const { mv, task_id: _taskId, ...fields } = body;
  return {
    action,
    model: typeof mv === 'string' ? mv : LAMBDA_DEFAULT_MODEL,
    // Parsed from JSON and checked storable: serialisable as it is.
    fields: fields as SerialisableObject,
    ...(continueTaskId === undefined ? {} : { continueTaskId }),
  };
}

function checkPrompts(action: LambdaAction, body: Record<string, unknown>): void {
  const filled = (field: string) => typeof body[field] === 'string' && (body[field] as string).trim() !== '';
  if (action === 'lyrics' && !filled('prompt')) {
    throw GatewayError.invalidRequest('prompt is required for lyrics: the idea to write about.', 'prompt');
  }
  if (action === 'music' && !filled('prompt') && !filled('description_prompt')) {
    throw GatewayError.invalidRequest(
      'prompt (lyrics) or description_prompt is required for music.',
      'prompt',
    );
  }
}

/** The task a continuation continues; undefined for a new song. */
function continuationOf(action: LambdaAction, body: Record<string, unknown>): string | undefined {
  const given = CONTINUATION_FIELDS.filter((field) => body[field] !== undefined);
  if (given.length === 0) return undefined;
  if (action !== 'music') {
    throw GatewayError.invalidRequest(`${given[0]} applies to music only.`, given[0]);
  }
  const missing = CONTINUATION_FIELDS.find((field) => body[field] === undefined);
  if (missing !== undefined) {
    throw GatewayError.invalidRequest(
      `${missing} is required to continue a clip: continue_clip_id, continue_at and task_id go together.`,
      missing,
    );
  }
  return body.task_id as string;
}
