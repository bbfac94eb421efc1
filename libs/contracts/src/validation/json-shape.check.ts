import { BODY_SHAPE_LIMITS, BodyShapeLimits } from './body-limits.constants';
import type { FieldProblem } from './field-problems.util';
import { PathSegment, RESERVED_KEYS, shapeProblem, ShapeFaultKind } from './shape-problems.util';

/** A fault and its path, innermost segment first: built while the walk unwinds, only on a fault. */
interface ShapeFault {
  kind: ShapeFaultKind;
  reversedPath: PathSegment[];
}

export interface ShapeCheckOptions {
  /**
   * Refuse keys named like members of Object.prototype (`toString`, `hasOwnProperty`): class-transformer
   * drops them from the instance without a word, so a check of unknown fields never sees them.
   */
  refuseObjectMemberKeys?: boolean;
}

class ShapeWalk {
  private values = 0;

  constructor(
    private readonly limits: BodyShapeLimits,
    private readonly options: ShapeCheckOptions,
  ) {}

  /**
   * Recursion is safe here: it stops one level past `maxDepth`. Loops rather than callbacks, and no
   * path strings on the way down: this runs on every request body.
   */
  visit(value: unknown, depth: number): ShapeFault | undefined {
    if (++this.values > this.limits.maxValues) return { kind: 'values', reversedPath: [] };
    if (typeof value !== 'object' || value === null) return undefined;
    if (depth > this.limits.maxDepth) return { kind: 'depth', reversedPath: [] };
    if (Array.isArray(value)) return this.visitArray(value, depth);
    return this.visitObject(value as Record<string, unknown>, depth);
  }

  private visitArray(array: unknown[], depth: number): ShapeFault | undefined {
    if (array.length > this.limits.maxEntries) return { kind: 'items', reversedPath: [] };
    for (let index = 0; index < array.length; index++) {
      const fault = this.visit(array[index], depth + 1);
      if (fault) {
        fault.reversedPath.push(index);
        return fault;
      }
    }
    return undefined;
  }

  private visitObject(object: Record<string, unknown>, depth: number): ShapeFault | undefined {
    let fields = 0;
    for (const key in object) {
      if (++fields > this.limits.maxEntries) return { kind: 'fields', reversedPath: [] };
      if (RESERVED_KEYS.has(key)) return { kind: 'reservedKey', reversedPath: [key] };
      if (this.options.refuseObjectMemberKeys && key in Object.prototype) {
        return { kind: 'unknownKey', reversedPath: [key] };
      }
      const fault = this.visit(object[key], depth + 1);
      if (fault) {
        fault.reversedPath.push(key);
        return fault;
      }
    }
    return undefined;
  }
}

/**
 * The first way a parsed body breaks the shape limits (nesting depth, items of an array, fields of an
 * object, values in all), or carries a reserved key; undefined when it has none. Free-form JSON
 * (function arguments, schemas) included. Run before any walk that recurses or copies, which the
 * limits then bound: class-transformer, class-validator, the dialect translators.
 */
export function findShapeProblem(
  body: unknown,
  limits: BodyShapeLimits = BODY_SHAPE_LIMITS,
  options: ShapeCheckOptions = {},
): FieldProblem | undefined {
  const fault = new ShapeWalk(limits, options).visit(body, 1);
  return fault && shapeProblem(fault.kind, fault.reversedPath.reverse(), limits);
}
