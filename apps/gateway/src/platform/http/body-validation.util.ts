import type { ClassConstructor } from 'class-transformer';
import { describeProblems, validateBody } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/**
 * `body` validated against `dto`; a refusal is the 400 naming every field at fault
 * (`Invalid request: a must be …; b is required.`), the gateway's usual words.
 */
export function everyFaultRefused<Fields extends object>(
  dto: ClassConstructor<Fields>,
  body: unknown,
): Fields {
  const validation = validateBody(dto, body);
  if (validation.ok) return validation.value;
  throw GatewayError.invalidRequest(describeProblems(validation.problems), validation.problems[0]?.field);
}

/**
 * `body` validated against `dto`; a refusal is the 400 naming the first field at fault, in the words
 * of a family whose checks ran one after the other (`title must be a string.`): the DTO's field order
 * is the order of its checks.
 */
export function firstFaultRefused<Fields extends object>(
  dto: ClassConstructor<Fields>,
  body: unknown,
): Fields {
  const validation = validateBody(dto, body);
  if (validation.ok) return validation.value;
  const [first] = validation.problems;
  throw GatewayError.invalidRequest(`${first.message}.`, first.field);
}
