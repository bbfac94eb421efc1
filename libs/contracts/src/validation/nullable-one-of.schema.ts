import type { SchemaObject } from '@nestjs/swagger';

/**
 * A `oneOf` whose value may also be null. OpenAPI 3.0 ignores `nullable` beside a `oneOf` (it needs a
 * `type` sibling), and `nullable` on every branch would let null match them all, which `oneOf`
 * forbids: so the first branch alone takes null.
 */
export function nullableOneOf(first: SchemaObject, ...rest: SchemaObject[]): { oneOf: SchemaObject[] } {
  return { oneOf: [{ ...first, nullable: true }, ...rest] };
}
