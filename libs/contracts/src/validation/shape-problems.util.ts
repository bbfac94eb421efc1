import type { BodyShapeLimits } from './body-limits.constants';
import { type FieldProblem, toProblem } from './field-problems.util';

/** What is wrong with the shape of a body, before any field is read. */
export type ShapeFaultKind = 'depth' | 'items' | 'fields' | 'values' | 'reservedKey' | 'unknownKey';

/** A step of a wire path: a field name, or an array index. */
export type PathSegment = string | number;

/**
 * Keys a body may not carry at any depth. class-transformer throws on `constructor`; `__proto__`, once
 * assigned (`object[key] = value`, `Object.assign`) by any code downstream, replaces an object's
 * prototype instead of adding a field. Neither has a use in a generation or admin request.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

/** Characters of a key a path shows: a free-form key can be megabytes long, and the path is echoed. */
const SHOWN_KEY_LENGTH = 64;

/** `contents[3].parts`, from its segments in order. */
export function toWirePath(segments: readonly PathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') {
      path += `[${segment}]`;
      continue;
    }
    const key = segment.length > SHOWN_KEY_LENGTH ? `${segment.slice(0, SHOWN_KEY_LENGTH)}…` : segment;
    path += path === '' ? key : `.${key}`;
  }
  return path;
}

/**
 * The problem of a shape fault; `segments` lead to the container at fault, or to the reserved key.
 */
export function shapeProblem(
  kind: ShapeFaultKind,
  segments: readonly PathSegment[],
  limits: BodyShapeLimits,
): FieldProblem {
  const path = toWirePath(segments);
  switch (kind) {
    case 'depth':
      return toProblem(path, `must not be nested more than ${limits.maxDepth} levels deep`);
    case 'items':
      return toProblem(path, `must have at most ${limits.maxEntries} items`);
    case 'fields':
      return toProblem(path, `must have at most ${limits.maxEntries} fields`);
    case 'values':
      return toProblem('', `must hold at most ${limits.maxValues} JSON values`);
    case 'unknownKey':
      return toProblem(path, 'is not a known field');
    case 'reservedKey':
      return {
        field: path,
        message: `${path} uses the reserved key '${String(segments[segments.length - 1])}', which the gateway cannot accept anywhere in a body`,
      };
  }
}
