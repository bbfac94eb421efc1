import type { ImageRequest } from '@gateway/providers-core';
import { fromStoredImageJob, isImageJobTask, toStoredImageJob } from './image-job-request';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const request: ImageRequest = {
  model: 'img-1',
  prompt: 'A boat',
  n: 2,
  size: '1024x1024',
  responseFormat: 'b64',
  images: [
    { kind: 'bytes', bytes: PNG, contentType: 'image/png' },
    { kind: 'url', url: 'https://example.com/a.png' },
  ],
  mask: { kind: 'bytes', bytes: PNG, contentType: 'image/png' },
};

describe('the stored request of an image job', () => {
  it('comes back as it was stored, through JSON, with its prompt where the task views read it', () => {
    const stored = JSON.parse(JSON.stringify(toStoredImageJob({ operation: 'edit', request })));
    expect(stored['prompt']).toBe('A boat');
    expect(fromStoredImageJob(stored)).toEqual({ operation: 'edit', request });
  });

  it('leaves out fields the request does not have', () => {
    const plain: ImageRequest = { model: 'img-1', prompt: 'x', responseFormat: 'url', images: [] };
    const stored = toStoredImageJob({ operation: 'generate', request: plain });
    expect(Object.keys(stored).sort()).toEqual(['images', 'model', 'operation', 'prompt', 'responseFormat']);
    expect(fromStoredImageJob(stored)).toEqual({ operation: 'generate', request: plain });
  });

  it.each([
    ['no object', 'text'],
    ['an array', []],
    ['no operation', { model: 'img-1', images: [] }],
    ['an unknown operation', { operation: 'delete', model: 'img-1', images: [] }],
    ['no model', { operation: 'generate', images: [] }],
    ['images not a list', { operation: 'generate', model: 'img-1', images: 'a' }],
    [
      'an input replaced by its length marker',
      { operation: 'edit', model: 'img-1', images: [{ length: 9 }] },
    ],
    ['an input neither data nor http', { operation: 'edit', model: 'img-1', images: ['file:///etc/passwd'] }],
    ['a mask that cannot be read', { operation: 'edit', model: 'img-1', images: [], mask: 7 }],
  ])('is unreadable (the job then fails and releases) with %s', (_case, stored) => {
    expect(fromStoredImageJob(stored)).toBeUndefined();
  });

  it('names image jobs by their prefix only', () => {
    expect(isImageJobTask('img_AAAAAAAAAAAAAAAAAAAAAA')).toBe(true);
    expect(isImageJobTask('bt_AAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
    expect(isImageJobTask('imgx_AAAA')).toBe(false);
  });
});
