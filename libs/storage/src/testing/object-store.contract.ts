import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { isObjectId } from '../object-id.util';
import {
  UnsatisfiableRangeError,
  type ObjectStore,
  type ObjectStoreClock,
  type StoredObjectContent,
} from '../object-store';

export const CONTRACT_RETENTION_HOURS = 24;

/** Builds a store over an empty namespace of the backend (a fresh folder, a fresh key prefix). */
export type CreateContractStore = (clock: ObjectStoreClock, retentionHours: number) => Promise<ObjectStore>;

const HOUR_MS = 3_600_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

class SettableClock implements ObjectStoreClock {
  nowMs = T0;
  now(): number {
    return this.nowMs;
  }
}

async function bytesOf(content: StoredObjectContent | undefined): Promise<Buffer> {
  if (content === undefined) throw new Error('expected a stored object');
  return buffer(content.body);
}

/**
 * The behaviour every ObjectStore backend shares, run by each backend's spec so that both are held to
 * it: the local directory (unit) and S3 against a server the spec starts (integration).
 */
export function describeObjectStoreContract(backend: string, createStore: CreateContractStore): void {
  describe(`ObjectStore contract: ${backend}`, () => {
    let clock: SettableClock;
    let store: ObjectStore;

    beforeEach(async () => {
      clock = new SettableClock();
      store = await createStore(clock, CONTRACT_RETENTION_HOURS);
    });

    it('gives back the stored bytes with their content type, size and default expiry', async () => {
      const bytes = Buffer.concat([PNG_SIGNATURE, randomBytes(200_000)]);

      const stored = await store.put(bytes, { contentType: 'image/png' });
      const read = await store.get(stored.id);

      const expiresAt = new Date(T0 + CONTRACT_RETENTION_HOURS * HOUR_MS);
      expect(stored).toEqual({ id: stored.id, contentType: 'image/png', size: bytes.length, expiresAt });
      expect(isObjectId(stored.id)).toBe(true);
      expect(read).toMatchObject({ id: stored.id, contentType: 'image/png', size: bytes.length, expiresAt });
      expect(read?.range).toBeUndefined();
      expect((await bytesOf(read)).equals(bytes)).toBe(true);
    });

    it('describes an object without reading it', async () => {
      const stored = await store.put(Buffer.from('GIF89a'), { contentType: 'Image/GIF' });

      expect(await store.head(stored.id)).toEqual({
        id: stored.id,
        contentType: 'image/gif',
        size: 6,
        expiresAt: stored.expiresAt,
      });
    });

    it('stores an empty object', async () => {
      const stored = await store.put(Buffer.alloc(0), { contentType: 'application/octet-stream' });

      const read = await store.get(stored.id);

      expect(read?.size).toBe(0);
      expect((await bytesOf(read)).length).toBe(0);
    });

    it('gives every object its own id, even for identical bytes', async () => {
      const bytes = Buffer.from('same bytes');

      const first = await store.put(bytes, { contentType: 'text/plain' });
      const second = await store.put(bytes, { contentType: 'text/plain' });

      expect(first.id).not.toBe(second.id);
    });

    it('keeps an explicit expiry, rounded up to the whole second', async () => {
      const stored = await store.put(Buffer.from('x'), {
        contentType: 'image/webp',
        expiresAt: new Date(T0 + HOUR_MS + 1),
      });

      expect(stored.expiresAt).toEqual(new Date(T0 + HOUR_MS + 1000));
      expect((await store.head(stored.id))?.expiresAt).toEqual(new Date(T0 + HOUR_MS + 1000));
    });

    it('refuses a content type that is not a plain type/subtype and an expiry not in the future', async () => {
      const bytes = Buffer.from('x');

      await expect(store.put(bytes, { contentType: 'image/png; charset=x' })).rejects.toThrow(TypeError);
      await expect(store.put(bytes, { contentType: 'image/png\r\nX-Injected: 1' })).rejects.toThrow(
        TypeError,
      );
      await expect(store.put(bytes, { contentType: 'png' })).rejects.toThrow(TypeError);
      await expect(store.put(bytes, { contentType: 'image/png', expiresAt: new Date(T0) })).rejects.toThrow(
        RangeError,
      );
    });

    describe('byte ranges', () => {
      const bytes = Buffer.from('0123456789');
      let id: string;

      beforeEach(async () => {
        ({ id } = await store.put(bytes, { contentType: 'video/mp4' }));
      });

      it.each([
        [{ start: 2, end: 4 }, '234', { start: 2, end: 4 }],
        [{ start: 0, end: 2 }, '012', { start: 0, end: 2 }],
        [{ start: 1, end: 1 }, '1', { start: 1, end: 1 }],
        [{ start: 7 }, '789', { start: 7, end: 9 }],
        [{ start: 8, end: 1000 }, '89', { start: 8, end: 9 }],
        [{ start: 9, end: 9 }, '9', { start: 9, end: 9 }],
      ])('serves %j as %s', async (range, expected, served) => {
        const read = await store.get(id, range);

        expect(read).toMatchObject({ size: 10, contentType: 'video/mp4', range: served });
        expect((await bytesOf(read)).toString()).toBe(expected);
      });

      it('refuses a range that starts past the last byte, with the size for the 416 answer', async () => {
        const refusal = await store.get(id, { start: 10 }).catch((error: unknown) => error);

        expect(refusal).toBeInstanceOf(UnsatisfiableRangeError);
        expect((refusal as UnsatisfiableRangeError).size).toBe(10);
      });

      it('refuses any range of an empty object', async () => {
        const empty = await store.put(Buffer.alloc(0), { contentType: 'image/png' });

        await expect(store.get(empty.id, { start: 0 })).rejects.toMatchObject({ size: 0 });
      });

      it('rejects a range built wrongly as a programming error', async () => {
        await expect(store.get(id, { start: 5, end: 4 })).rejects.toThrow(RangeError);
        await expect(store.get(id, { start: -1 })).rejects.toThrow(RangeError);
      });
    });

    it('reads an unknown or malformed id as absent', async () => {
      const unknown = `${String(T0 / 1000 + HOUR_MS / 1000)}-${'0'.repeat(32)}`;
      const stored = await store.put(Buffer.from('x'), { contentType: 'image/png' });

      for (const id of [
        unknown,
        '',
        '../../etc/passwd',
        `../${stored.id}`,
        stored.id.toUpperCase(),
        `${stored.id}.json`,
      ]) {
        expect(await store.get(id)).toBeUndefined();
        expect(await store.head(id)).toBeUndefined();
        await expect(store.delete(id)).resolves.toBeUndefined();
      }
      expect(await store.head(stored.id)).toBeDefined();
    });

    it('deletes an object, and deleting it again is no error', async () => {
      const kept = await store.put(Buffer.from('kept'), { contentType: 'image/png' });
      const deleted = await store.put(Buffer.from('deleted'), { contentType: 'image/png' });

      await store.delete(deleted.id);
      await store.delete(deleted.id);

      expect(await store.get(deleted.id)).toBeUndefined();
      expect(await store.head(deleted.id)).toBeUndefined();
      expect((await bytesOf(await store.get(kept.id))).toString()).toBe('kept');
    });

    it('reads an object as absent from its expiry on, before any sweep', async () => {
      const stored = await store.put(Buffer.from('x'), {
        contentType: 'image/png',
        expiresAt: new Date(T0 + HOUR_MS),
      });

      clock.nowMs = T0 + HOUR_MS - 1;
      expect(await store.head(stored.id)).toBeDefined();

      clock.nowMs = T0 + HOUR_MS;
      expect(await store.get(stored.id)).toBeUndefined();
      expect(await store.head(stored.id)).toBeUndefined();
    });

    it('sweeps exactly the objects expired at the given time, and removes them for good', async () => {
      const expiringIn = async (hours: number) =>
        (
          await store.put(Buffer.from(`${hours}h`), {
            contentType: 'image/png',
            expiresAt: new Date(T0 + hours * HOUR_MS),
          })
        ).id;
      const [third, first, second] = [await expiringIn(3), await expiringIn(1), await expiringIn(2)];

      const result = await store.sweepExpired(new Date(T0 + 2 * HOUR_MS));

      expect(result).toEqual({ removed: 2, failed: 0 });
      // Back before every expiry: a removed object stays absent, a kept one is still there.
      expect(await store.get(first)).toBeUndefined();
      expect(await store.get(second)).toBeUndefined();
      expect((await bytesOf(await store.get(third))).toString()).toBe('3h');
      expect(await store.sweepExpired(new Date(T0 + 2 * HOUR_MS))).toEqual({ removed: 0, failed: 0 });
    });

    it('sweeps nothing from an empty store', async () => {
      expect(await store.sweepExpired(new Date(T0 + 1000 * HOUR_MS))).toEqual({ removed: 0, failed: 0 });
    });
  });
}
