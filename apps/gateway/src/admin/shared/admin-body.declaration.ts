import type { Type } from '@nestjs/common';
import type { BodyDeclaration } from '../../platform/http/declared-body';
import { parseAdminInput } from './admin-input.util';

/**
 * An admin route's body, declared on the route (DeclaresBody): its DTO, validated by the admin rules
 * (parseAdminInput: unknown fields and unstorable text refused) into the admin 400. A body left out
 * is validated as `{}`; `optional` documents it as not required.
 */
export function adminBody<Fields extends object>(
  dto: Type<Fields>,
  options: { optional?: boolean } = {},
): BodyDeclaration<Fields> {
  return { dto, validate: (dtoClass, body) => parseAdminInput(dtoClass, body), ...options };
}
