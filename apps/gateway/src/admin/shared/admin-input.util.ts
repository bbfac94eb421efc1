import { describeProblems, validateBody } from '@gateway/contracts';
import { GatewayError } from '../../errors/gateway-error';

type DtoClass<T> = new () => T;

/**
 * Validates an admin body or query against its DTO. Unknown fields are refused too: in an operator
 * API a misspelt field (`overdraftLimit` for `overdraftLimitMicros`) must fail loudly, not be ignored.
 */
export function parseAdminInput<T extends object>(dtoClass: DtoClass<T>, plain: unknown): T {
  const result = validateBody(dtoClass, plain ?? {}, { refuseUnknownFields: true });
  if (result.ok) return result.value;
  throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
}
