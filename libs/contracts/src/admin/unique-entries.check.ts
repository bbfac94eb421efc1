/**
 * Finds the first list item whose `key` repeats an earlier item's, answered as a problem about that
 * item (`.models[2].model repeats an earlier entry`). Items that are not objects are left to the
 * list's own checks.
 */
export function checkUniqueEntries(listName: string, key: string, list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const seen = new Set<unknown>();
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    if (typeof item !== 'object' || item === null) continue;
    const value = (item as Record<string, unknown>)[key];
    if (typeof value !== 'string') continue;
    if (seen.has(value)) return `.${listName}[${index}].${key} repeats an earlier entry`;
    seen.add(value);
  }
  return undefined;
}
