import type { FieldProblem } from './field-problems.util';

/**
 * Keys that class-transformer cannot copy into a DTO instance: on `constructor` it throws (it skips
 * `__proto__` safely). A body carrying one anywhere, free-form tool arguments and schemas included,
 * is refused with its path instead of failing inside the transform.
 */
const RESERVED_KEYS = new Set(['constructor']);

/** The wire path of the first reserved key in `value`, depth first; undefined when there is none. */
export function findReservedKeyPath(value: unknown, path = ''): string | undefined {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findReservedKeyPath(value[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (RESERVED_KEYS.has(key)) return keyPath;
    const found = findReservedKeyPath((value as Record<string, unknown>)[key], keyPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function reservedKeyProblem(path: string): FieldProblem {
  const key = path.slice(path.lastIndexOf('.') + 1);
  return {
    field: path,
    message: `${path} uses the reserved key '${key}', which the gateway cannot accept anywhere in a body`,
  };
}
