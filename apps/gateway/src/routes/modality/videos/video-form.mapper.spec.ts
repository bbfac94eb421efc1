import { PNG } from 'pngjs';
import { GatewayError } from '@gateway/errors';
import type { MultipartForm } from '../../../platform/http/multipart-form.reader';
import { videoFormOf } from './video-form.mapper';

const png = PNG.sync.write(new PNG({ width: 2, height: 2 }));

function formOf(fields: Array<[string, string]>, files: MultipartForm['files'] = []): MultipartForm {
  const map = new Map<string, string[]>();
  for (const [name, value] of fields) map.set(name, [...(map.get(name) ?? []), value]);
  return { fields: map, files };
}

function refusedParam(form: MultipartForm): string | undefined {
  try {
    videoFormOf(form);
  } catch (error) {
    if (error instanceof GatewayError && error.httpStatus === 400) return error.param;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('videoFormOf', () => {
  it('nests bracketed names as the official client writes them, and reads the files as data: URIs', () => {
    const { body, uploads } = videoFormOf(
      formOf(
        [
          ['model', 'zeta-video-3'],
          ['prompt', 'A kite'],
          ['seconds', '6'],
          ['images[]', 'https://a.test/1.png'],
          ['images[]', 'https://a.test/2.png'],
          ['metadata[output_config][resolution]', '1080P'],
          ['input_reference[image_url]', 'https://a.test/3.png'],
        ],
        [
          { field: 'input_reference', bytes: png },
          { field: 'input_reference[]', bytes: png },
        ],
      ),
    );
    expect(body).toEqual({
      model: 'zeta-video-3',
      prompt: 'A kite',
      seconds: '6',
      images: ['https://a.test/1.png', 'https://a.test/2.png'],
      metadata: { output_config: { resolution: '1080P' } },
      input_reference: { image_url: 'https://a.test/3.png' },
    });
    expect(uploads).toEqual([0, 1].map(() => `data:image/png;base64,${png.toString('base64')}`));
  });

  it('reads first_frame_image and last_frame_image files as data: URIs with the frame roles', () => {
    const { uploads, frames } = videoFormOf(
      formOf(
        [['model', 'eta-theta-1-0-pro_720p']],
        [
          { field: 'last_frame_image', bytes: png },
          { field: 'first_frame_image', bytes: png },
        ],
      ),
    );
    const url = `data:image/png;base64,${png.toString('base64')}`;
    expect(uploads).toEqual([]);
    expect(frames).toEqual([
      { role: 'last_frame', url, source: 'last_frame_image' },
      { role: 'first_frame', url, source: 'first_frame_image' },
    ]);
  });

  it('parses a metadata part holding a JSON object', () => {
    const { body } = videoFormOf(formOf([['metadata', '{"offpeak":true}']]));
    expect(body['metadata']).toEqual({ offpeak: true });
  });

  it.each([
    [
      'a field sent twice',
      formOf([
        ['prompt', 'a'],
        ['prompt', 'b'],
      ]),
      'prompt',
    ],
    [
      'a value and a nested value under one name',
      formOf([
        ['metadata', '{}'],
        ['metadata[a]', 'b'],
      ]),
      'metadata[a]',
    ],
    ['metadata that is no JSON object', formOf([['metadata', '[1]']]), 'metadata'],
    ['a prototype key', formOf([['metadata[__proto__][x]', '1']]), 'metadata[__proto__][x]'],
    ['an empty segment inside a name', formOf([['images[][x]', '1']]), 'images[][x]'],
    ['a name nested too deep', formOf([['a[b][c][d][e]', '1']]), 'a[b][c][d][e]'],
    ['a name that is not bracketed properly', formOf([['a]b', '1']]), 'a]b'],
    ['a file in another field', formOf([], [{ field: 'image', bytes: png }]), 'image'],
    [
      'a file that is no image',
      formOf([], [{ field: 'input_reference', bytes: Buffer.from('GIF89a?') }]),
      'input_reference[0]',
    ],
    [
      'a frame file sent twice',
      formOf(
        [],
        [
          { field: 'first_frame_image', bytes: png },
          { field: 'first_frame_image', bytes: png },
        ],
      ),
      'first_frame_image',
    ],
    [
      'a frame file that is no image',
      formOf([], [{ field: 'last_frame_image', bytes: Buffer.from('GIF89a?') }]),
      'last_frame_image',
    ],
  ])('refuses %s', (_case, form, param) => {
    expect(refusedParam(form)).toBe(param);
  });
});
