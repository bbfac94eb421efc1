import type { ClassConstructor } from 'class-transformer';
import {
  describeProblems,
  findStoredFieldProblem,
  findUnstorableText,
  UNSTORABLE_TEXT_PROBLEM,
  validateBody,
  type StoredFieldsShape,
} from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/**
 * A task submission's body checked against its DTO, and for what the task row's jsonb request cannot
 * store (NUL, lone surrogates) or should not (`stored`: pass-through fields past their cap, unknown
 * fields past their count or size; STORED_FIELD_LIMITS): every field, named or passed through, may be
 * kept there. Throws the client's 400 naming the first field at fault.
 */
export function validTaskBody<T extends object>(
  dtoClass: ClassConstructor<T>,
  body: unknown,
  stored: StoredFieldsShape,
): T {
  const result = validateBody(dtoClass, body);
  if (!result.ok) {
    throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
  }
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw GatewayError.invalidRequest(`${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, unstorable);
  }
  const tooLarge = findStoredFieldProblem(body as Record<string, unknown>, stored);
  if (tooLarge) throw GatewayError.invalidRequest(`${tooLarge.message}.`, tooLarge.field);
  return result.value;
}
