import type { FieldProblem } from './field-problems.util';
import { STORED_FIELD_LIMITS } from './stored-field-limits.constants';

/** What a task route keeps of a body besides the fields its DTO bounds. */
export interface StoredFieldsShape {
  /** Every field the route names (read, or documented as its wire's): any other field is unknown. */
  named: ReadonlySet<string>;
  /** Named fields stored and sent as the client wrote them (`metadata`, `meta_data`, `payload`). */
  passThrough?: readonly string[];
}

/** Bytes of a parsed JSON value written back as JSON text, in UTF-8: what jsonb and the upstream get. */
export function serialisedBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A pass-through field's cap, as a ValueCheck (undefined when it fits). */
export function checkPassThroughSize(value: unknown): string | undefined {
  return serialisedBytes(value) > STORED_FIELD_LIMITS.passThroughBytes
    ? `must be at most ${STORED_FIELD_LIMITS.passThroughBytes} bytes serialised as JSON`
    : undefined;
}

/**
 * The first pass-through field over its cap, or the unknown field that takes the unknown ones past
 * their count or their size together; undefined when the body fits. Run after the DTO's checks (the
 * body is a parsed JSON object whose shape is bounded).
 */
export function findStoredFieldProblem(
  body: Record<string, unknown>,
  shape: StoredFieldsShape,
): FieldProblem | undefined {
  for (const field of shape.passThrough ?? []) {
    const value = body[field];
    const problem = value === undefined ? undefined : checkPassThroughSize(value);
    if (problem !== undefined) return { field, message: `${field} ${problem}` };
  }
  return findUnknownFieldsProblem(body, shape.named);
}

function findUnknownFieldsProblem(
  body: Record<string, unknown>,
  named: ReadonlySet<string>,
): FieldProblem | undefined {
  const { unknownFields, unknownFieldsBytes } = STORED_FIELD_LIMITS;
  let count = 0;
  let bytes = 0;
  for (const [field, value] of Object.entries(body)) {
    if (named.has(field) || value === undefined) continue;
    if (++count > unknownFields) {
      return {
        field,
        message: `${field} is one field too many: at most ${unknownFields} fields the route does not name are passed through`,
      };
    }
    bytes += serialisedBytes(field) + serialisedBytes(value);
    if (bytes > unknownFieldsBytes) {
      return {
        field,
        message: `${field} takes the fields the route does not name past ${unknownFieldsBytes} bytes serialised as JSON together`,
      };
    }
  }
  return undefined;
}
