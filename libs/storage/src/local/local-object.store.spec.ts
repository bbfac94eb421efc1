import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createObjectStore } from '../object-store.factory';
import { describeObjectStoreContract } from '../testing/object-store.contract';
import { systemObjectStoreClock } from '../object-store';
import { LocalObjectStore } from './local-object.store';

/** Runs once before the next atomic write, to interleave another operation at that exact point. */
let mockBeforeNextWrite: (() => Promise<unknown>) | undefined;
jest.mock('./atomic-file.util', () => {
  const actual = jest.requireActual<typeof import('./atomic-file.util')>('./atomic-file.util');
  return {
    writeFileAtomically: async (path: string, data: Uint8Array | string) => {
      const interleaved = mockBeforeNextWrite;
      mockBeforeNextWrite = undefined;
      await interleaved?.();
      return actual.writeFileAtomically(path, data);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'local-object-store-'));
let namespaces = 0;
const freshDirectory = () => join(root, `store-${(namespaces += 1)}`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describeObjectStoreContract('local directory', (clock, retentionHours) =>
  createObjectStore({ kind: 'local', directory: freshDirectory(), retentionHours }, clock),
);

describe('LocalObjectStore on disk', () => {
  const HOUR_MS = 3_600_000;
  let directory: string;
  let store: LocalObjectStore;

  beforeEach(() => {
    directory = freshDirectory();
    store = new LocalObjectStore({ directory, retentionHours: 1, clock: systemObjectStoreClock });
  });

  it('keeps the bytes in a plain file beside a JSON sidecar, grouped by expiry, and no temporary file', async () => {
    const stored = await store.put(Buffer.from('png bytes'), { contentType: 'image/png' });

    const group = stored.id.slice(0, 5);
    expect(await readdir(directory)).toEqual([group]);
    expect((await readdir(join(directory, group))).sort()).toEqual([stored.id, `${stored.id}.json`]);
    expect(await readFile(join(directory, group, stored.id), 'utf8')).toBe('png bytes');
    expect(JSON.parse(await readFile(join(directory, group, `${stored.id}.json`), 'utf8'))).toEqual({
      contentType: 'image/png',
      expiresAt: stored.expiresAt.toISOString(),
    });
  });

  it('reads bytes whose sidecar is missing as absent: a put that stopped half way', async () => {
    const stored = await store.put(Buffer.from('x'), { contentType: 'image/png' });
    rmSync(join(directory, stored.id.slice(0, 5), `${stored.id}.json`));

    expect(await store.get(stored.id)).toBeUndefined();
    expect(await store.head(stored.id)).toBeUndefined();
  });

  it('sweeps the leftovers of a crashed write with their object, and the emptied folder', async () => {
    const expiresAt = new Date(Date.now() + HOUR_MS);
    const stored = await store.put(Buffer.from('x'), { contentType: 'image/png', expiresAt });
    const folder = join(directory, stored.id.slice(0, 5));
    await writeFile(join(folder, `${stored.id}.0a1b2c3d4e5f.tmp`), 'partial');
    const afterGroupEnds = new Date((Number(stored.id.slice(0, 5)) + 1) * 100_000_000);

    expect(await store.sweepExpired(afterGroupEnds)).toEqual({ removed: 1, failed: 0 });
    expect(await readdir(directory)).toEqual([]);
  });

  it('stores an object whose empty folder a sweep removed between making it and writing into it', async () => {
    // An object that expires in the last moments of its folder's span, and a sweep whose clock has
    // already passed that span (another host's): it finds the folder empty and removes it.
    const expiresAt = new Date(Date.now() + HOUR_MS);
    const groupEndMs = (Math.floor(Math.ceil(expiresAt.getTime() / 1000) / 100_000) + 1) * 100_000_000;
    mockBeforeNextWrite = () => store.sweepExpired(new Date(groupEndMs));

    const stored = await store.put(Buffer.from('png bytes'), { contentType: 'image/png', expiresAt });

    expect(mockBeforeNextWrite).toBeUndefined();
    const content = await store.get(stored.id);
    expect(content).toMatchObject({ contentType: 'image/png', size: 9 });
    content?.body.destroy();
  });

  it('leaves files that are not objects alone', async () => {
    const stored = await store.put(Buffer.from('x'), { contentType: 'image/png' });
    const folder = join(directory, stored.id.slice(0, 5));
    await writeFile(join(folder, 'notes.txt'), 'operator notes');

    expect(await store.sweepExpired(new Date(stored.expiresAt.getTime() + 1000 * HOUR_MS))).toEqual({
      removed: 1,
      failed: 0,
    });
    expect(await readdir(folder)).toEqual(['notes.txt']);
  });

  it('sweeps a directory that does not exist yet as empty', async () => {
    expect(await store.sweepExpired(new Date())).toEqual({ removed: 0, failed: 0 });
  });
});
