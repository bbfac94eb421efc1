import type { ClassConstructor } from 'class-transformer';
import {
  describeProblems,
  findUnstorableText,
  UNSTORABLE_TEXT_PROBLEM,
  validateBody,
} from '@gateway/contracts';
import { GatewayError } from '../errors/gateway-error';

/**
 * A task submission's body checked against its DTO, and for text the task row's jsonb request cannot
 * store (NUL, lone surrogates): every field, named or passed through, is kept there. Throws the
 * client's 400 naming the first field at fault.
 */
export function validTaskBody<T extends object>(dtoClass: ClassConstructor<T>, body: unknown): T {
  const result = validateBody(dtoClass, body);
  if (!result.ok) {
    throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
  }
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw GatewayError.invalidRequest(`${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, unstorable);
  }
  return result.value;
}
