import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes beside the target and renames over it, so a reader sees the whole file or none of it. The
 * temporary name starts with the target's, which lets a sweep attribute a crash's leftover to its
 * object. Synced before the rename: without it a power loss could leave a full-length name over empty
 * data on some file systems, and a URL already handed to a client would serve a broken image.
 */
export async function writeFileAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temporaryPath = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporaryPath, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporaryPath, path);
  } catch (error) {
    await rm(temporaryPath, { force: true });
    throw error;
  }
}
