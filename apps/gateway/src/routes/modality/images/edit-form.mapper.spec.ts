import { PNG } from 'pngjs';
import type { MultipartForm } from '../../../platform/http/multipart-form.reader';
import { toEditRequest } from './edit-form.mapper';

const png = PNG.sync.write(new PNG({ width: 2, height: 2 }));

function formOf(fields: Record<string, string | string[]>, files: Array<[string, Buffer]>): MultipartForm {
  return {
    fields: new Map(
      Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
    ),
    files: files.map(([field, bytes]) => ({ field, bytes })),
  };
}

describe('toEditRequest', () => {
  it('reads the text parts, the images of image and image[], and the mask', () => {
    const request = toEditRequest(
      formOf({ model: 'img-1', prompt: 'Edit', n: '2', watermark: 'false', response_format: 'b64_json' }, [
        ['image[]', png],
        ['image[]', png],
        ['mask', png],
      ]),
    );
    expect(request).toMatchObject({
      model: 'img-1',
      prompt: 'Edit',
      n: 2,
      watermark: false,
      responseFormat: 'b64',
    });
    expect(request.images).toHaveLength(2);
    expect(request.mask).toEqual({ kind: 'bytes', bytes: png, contentType: 'image/png' });
  });

  it.each([
    [
      'n that is no number',
      { model: 'img-1', prompt: 'Edit', n: 'two' },
      [['image', png]],
      /n must be an integer/,
    ],
    ['no image', { model: 'img-1', prompt: 'Edit' }, [], /image is required/],
    ['a file in another field', { model: 'img-1', prompt: 'Edit' }, [['picture', png]], /Unexpected file/],
    [
      'two masks',
      { model: 'img-1', prompt: 'Edit' },
      [
        ['image', png],
        ['mask', png],
        ['mask', png],
      ],
      /one mask/,
    ],
    ['a field sent twice', { model: 'img-1', prompt: ['Edit', 'Again'] }, [['image', png]], /sent twice/],
    ['no model', { prompt: 'Edit' }, [['image', png]], /model/],
  ] as const)('refuses %s', (_case, fields, files, message) => {
    const form = formOf(
      fields as Record<string, string | string[]>,
      files as unknown as Array<[string, Buffer]>,
    );
    expect(() => toEditRequest(form)).toThrow(message);
  });

  it('refuses a part named __proto__ as the JSON routes refuse the key, leaving every prototype alone', () => {
    const form = formOf({ model: 'img-1', prompt: 'Edit' }, [['image', png]]);
    form.fields.set('__proto__', ['{"polluted":true}']);
    expect(() => toEditRequest(form)).toThrow(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
