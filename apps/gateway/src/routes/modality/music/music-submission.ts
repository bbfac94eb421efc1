import { findStoredFieldProblem, findUnstorableText, UNSTORABLE_TEXT_PROBLEM } from '@gateway/contracts';
import { LAMBDA_DEFAULT_MODEL, type LambdaAction } from '@gateway/dialects';
import { isJsonObject, type SerialisableObject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { firstFaultRefused } from '../../../platform/http/body-validation.util';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import { LAMBDA_SUBMIT_FIELDS, LambdaSubmitRequestDto } from './lambda-request.dto';

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

const CONTINUATION_FIELDS = ['continue_clip_id', 'continue_at', 'task_id'] as const;

/**
 * The submit body's declaration: the DTO's fields, checked in its order, the first fault refused in
 * the family's words (`title must be a string.`). Before them, a body that is not an object and
 * anything Postgres cannot store (the body is kept on the task row); after them, the fields passed
 * through, bounded in number and size (STORED_FIELD_LIMITS).
 */
export const MUSIC_SUBMIT_BODY: BodyDeclaration<LambdaSubmitRequestDto> = {
  dto: LambdaSubmitRequestDto,
  validate: (dto, body) => {
    if (!isJsonObject(body)) throw GatewayError.invalidRequest('The body must be a JSON object.');
    const unstorable = findUnstorableText(body);
    if (unstorable !== undefined) {
      throw GatewayError.invalidRequest(`${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, unstorable);
    }
    const fields = firstFaultRefused(dto, body);
    const tooLarge = findStoredFieldProblem(body, { named: LAMBDA_SUBMIT_FIELDS });
    if (tooLarge) throw GatewayError.invalidRequest(`${tooLarge.message}.`, tooLarge.field);
    return fields;
  },
};

/**
 * Reads a submit body by upstreams.md §9.3: the declaration's checks, then a prompt for lyrics (music
 * needs a prompt or a description), and a continuation's three fields together, for music only.
 * `body` as the route declared it, or as sent (then validated by the same declaration). Throws the
 * client's 400 naming the field.
 */
export function toMusicSubmission(
  action: LambdaAction,
  body: DeclaredBody<LambdaSubmitRequestDto> | unknown,
): MusicSubmission {
  const declared = declaredBodyOf(body, MUSIC_SUBMIT_BODY);
  declared.fields();
  // Checked an object by the declaration; its fields not named there pass to the upstream as sent.
  const raw = declared.raw as Record<string, unknown>;
  checkPrompts(action, raw);
  const continueTaskId = continuationOf(action, raw);
  const { mv, task_id: _taskId, ...fields } = raw;
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
