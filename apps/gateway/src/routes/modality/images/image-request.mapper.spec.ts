import { PNG } from 'pngjs';
import { GatewayError } from '@gateway/errors';
import { referenceImagesOf, toGenerationRequest } from './image-request.mapper';

const png = PNG.sync.write(new PNG({ width: 2, height: 2 }));

describe('toGenerationRequest', () => {
  it('reads the OpenAI-style body into the neutral request, with n and the format as sent', () => {
    expect(
      toGenerationRequest({
        model: 'draw-3',
        prompt: 'A fox',
        n: 0,
        size: '1024x1024',
        quality: 'hd',
        response_format: 'base64',
        watermark: false,
        user: 'ignored',
      }),
    ).toEqual({
      model: 'draw-3',
      prompt: 'A fox',
      n: 0,
      size: '1024x1024',
      quality: 'hd',
      style: undefined,
      background: undefined,
      watermark: false,
      responseFormat: 'b64',
      images: [],
      mask: undefined,
      ratio: undefined,
      resolution: undefined,
    });
  });

  it.each([
    [{}, 'url'],
    [{ response_format: null }, 'url'],
    [{ response_format: 'url' }, 'url'],
    [{ response_format: 'b64_json' }, 'b64'],
  ])('reads response_format %j as %s', (field, format) => {
    expect(toGenerationRequest({ model: 'img-1', prompt: 'x', ...field }).responseFormat).toBe(format);
  });

  it('refuses a body without model, naming it', () => {
    expect(() => toGenerationRequest({ prompt: 'x' })).toThrow(GatewayError);
    try {
      toGenerationRequest({ prompt: 'x' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_request', param: 'model' });
    }
  });
});

describe('referenceImagesOf', () => {
  it('keeps URLs as URLs and decodes Base64, bare or as a data URL, checking the bytes', () => {
    const bare = png.toString('base64');
    expect(referenceImagesOf(['https://example.com/a.png', bare, `data:image/png;base64,${bare}`])).toEqual([
      { kind: 'url', url: 'https://example.com/a.png' },
      { kind: 'bytes', bytes: png, contentType: 'image/png' },
      { kind: 'bytes', bytes: png, contentType: 'image/png' },
    ]);
  });

  it('takes one string as one image', () => {
    expect(referenceImagesOf('https://example.com/a.png')).toHaveLength(1);
    expect(referenceImagesOf(undefined)).toEqual([]);
    expect(referenceImagesOf(null)).toEqual([]);
  });

  it.each(['not base64 at all!', Buffer.from('GIF87a but not really').toString('base64')])(
    'refuses %p, naming the entry',
    (entry) => {
      expect(() => referenceImagesOf(['https://example.com/a.png', entry])).toThrow(/image\[1\]/);
    },
  );
});
