import { ByteStrings } from '@gateway/providers-core';
import { taskRequestHash } from './task-request-hash';

const base = { route: '/v1/videos', modelName: 'delta-2', remixOf: undefined };

describe('taskRequestHash', () => {
  it('is the same for the same request whatever the order of its fields', () => {
    const one = taskRequestHash({ ...base, fields: { prompt: 'a', seconds: 8, metadata: { x: 1, y: 2 } } });
    const two = taskRequestHash({ ...base, fields: { metadata: { y: 2, x: 1 }, seconds: 8, prompt: 'a' } });
    expect(one).toBe(two);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['another prompt', { ...base, fields: { prompt: 'b', seconds: 8 } }],
    ['another route', { ...base, route: '/v1/video/create', fields: { prompt: 'a', seconds: 8 } }],
    ['another model', { ...base, modelName: 'delta-2-pro', fields: { prompt: 'a', seconds: 8 } }],
    ['another source video', { ...base, remixOf: 'video_x', fields: { prompt: 'a', seconds: 8 } }],
  ])('differs for %s', (_case, other) => {
    expect(taskRequestHash(other)).not.toBe(
      taskRequestHash({ ...base, fields: { prompt: 'a', seconds: 8 } }),
    );
  });

  it("hashes an image held as the body's bytes as it hashes the image's string, and another image otherwise", () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(10_000)}`;
    const byteStrings = new ByteStrings();
    const token = byteStrings.add(Buffer.from(image));
    const fields = (images: string[]) => ({
      prompt: 'a',
      images: images.map((url) => ({ role: 'reference', url })),
    });
    const held = taskRequestHash({ ...base, fields: fields([token]) }, byteStrings);
    expect(held).toBe(taskRequestHash({ ...base, fields: fields([image]) }));
    expect(held).not.toBe(taskRequestHash({ ...base, fields: fields([`${image}AAAA`]) }));
  });
});
