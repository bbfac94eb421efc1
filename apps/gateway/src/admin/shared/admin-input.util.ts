import { ADMIN_INPUT_RULES, describeProblems, validateBody } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

type DtoClass<T> = new () => T;

/** Validates an admin body or query against its DTO by the admin rules (ADMIN_INPUT_RULES). */
export function parseAdminInput<T extends object>(dtoClass: DtoClass<T>, plain: unknown): T {
  const result = validateBody(dtoClass, plain ?? {}, ADMIN_INPUT_RULES);
  if (result.ok) return result.value;
  throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
}
