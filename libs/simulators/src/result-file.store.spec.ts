import { solidImage } from './image-bytes.util';
import { ResultFileStore } from './result-file.store';

describe('ResultFileStore', () => {
  const image = solidImage('png', 8, 8);

  it('names files by format and finds them until their lifetime ends', () => {
    const store = new ResultFileStore();
    const name = store.publish(image, 60, 1_000_000);
    expect(name).toMatch(/^img_[A-Za-z0-9]{24}\.png$/);
    expect(store.lookup(name, 1_000_000 + 59_999)).toEqual({
      found: { content: image, expiresAtMs: 1_060_000 },
    });
    expect(store.lookup(name, 1_060_000)).toEqual({ missing: 'expired' });
  });

  it('tells an unknown name from an expired one', () => {
    expect(new ResultFileStore().lookup('img_nothing.png')).toEqual({ missing: 'unknown' });
  });

  it('gives every publication its own name', () => {
    const store = new ResultFileStore();
    expect(store.publish(image, 60)).not.toBe(store.publish(image, 60));
  });
});
