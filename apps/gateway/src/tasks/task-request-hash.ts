import { createHash } from 'node:crypto';
import { isJsonObject, type ByteStrings } from '@gateway/providers-core';

/**
 * What tells a repeated Idempotency-Key of a task creation (videos, music, async image jobs) from a
 * reuse with another body: SHA-256 (hex) of the request as the gateway read it (after the style's
 * parsing, so `"8"` and `8` are the same seconds, and the order of JSON fields does not count), with
 * its route, its model name and the video it remixes, if any. An image held as the body's bytes
 * (`byteStrings`) is hashed from them, as its string would be.
 */
export function taskRequestHash(
  request: {
    route: string;
    modelName: string | undefined;
    remixOf: string | undefined;
    fields: object;
  },
  byteStrings?: ByteStrings,
): string {
  const { route, modelName, remixOf, fields } = request;
  const canonical = JSON.stringify(
    { route, model: modelName ?? null, remixOf: remixOf ?? null, fields },
    (_key, value: unknown) => (isJsonObject(value) ? sortedKeys(value) : value),
  );
  const hash = createHash('sha256');
  for (const piece of byteStrings ? byteStrings.piecesOf(canonical) : [canonical]) hash.update(piece);
  return hash.digest('hex');
}

function sortedKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
