import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';

/** What a path under /console is served with. */
export type ConsoleFile =
  { kind: 'file'; path: string; hashed: boolean } | { kind: 'app' } | { kind: 'missing-asset' };

const ASSETS = 'assets';

/**
 * Places a path under /console (already decoded by the router, without the prefix) in the build:
 * - an existing file inside the folder is served as itself (dot segments cannot leave it);
 * - a missing file under assets/ is a 404: a stale page asking for an old build's script must fail
 *   visibly, not receive HTML as JavaScript;
 * - anything else is one of the single-page app's routes (/console/tasks/abc): index.html.
 */
export async function resolveConsoleFile(directory: string, wildcard: string): Promise<ConsoleFile> {
  const inside = relative(directory, resolve(directory, `.${sep}${wildcard}`));
  const escapes = inside.startsWith('..') || inside.includes('\0');
  const isAsset = inside === ASSETS || inside.startsWith(`${ASSETS}${sep}`);
  if (!escapes && inside !== '' && (await isFile(resolve(directory, inside)))) {
    return { kind: 'file', path: inside, hashed: isAsset };
  }
  return isAsset ? { kind: 'missing-asset' } : { kind: 'app' };
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
