import { GatewayError } from '@gateway/errors';
import { toAlphaVideoDraft, urlImagesOf, type AlphaEndpoint } from './alpha-video-request';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const URL_A = 'https://images.example/a.png';
const URL_B = 'http://images.example/b.jpg';

function refusalOf(endpoint: AlphaEndpoint, body: unknown): GatewayError {
  try {
    toAlphaVideoDraft(endpoint, body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('alpha official request bodies', () => {
  it('gives the images of each endpoint their roles, in the official style', () => {
    const roles = (endpoint: AlphaEndpoint, images: string[]) =>
      toAlphaVideoDraft(endpoint, { model: 'alphaq2-pro', images }).fields.images.map((image) => image.role);
    expect(roles('img2video', [PNG])).toEqual(['first_frame']);
    expect(roles('start-end2video', [PNG, URL_A])).toEqual(['first_frame', 'last_frame']);
    expect(roles('reference2video', [PNG, URL_A, URL_B])).toEqual(['reference', 'reference', 'reference']);
    expect(toAlphaVideoDraft('text2video', { model: 'alphaq2-pro', prompt: 'x' }).fields).toMatchObject({
      style: 'official',
      images: [],
      subjects: [],
    });
  });

  it('reads duration, resolution and aspect_ratio, and keeps every other field as an extra, as written', () => {
    const draft = toAlphaVideoDraft('reference2video', {
      model: 'alphaq2-pro',
      prompt: '@cat',
      subjects: [
        { id: 'cat', images: [PNG], voice_id: 'v1' },
        { id: 'dog', images: [URL_A] },
      ],
      duration: 7,
      resolution: '1080p',
      aspect_ratio: '9:16',
      bgm: true,
      payload: 'p',
      meta_data: '{"a":1}',
      callback_url: 'https://hooks.example/',
    });
    expect(draft.modelName).toBe('alphaq2-pro');
    expect(draft.fields).toMatchObject({
      prompt: '@cat',
      seconds: 7,
      resolution: '1080p',
      aspectRatio: '9:16',
    });
    expect(draft.fields.subjects).toEqual([
      { id: 'cat', images: [PNG], voiceId: 'v1' },
      { id: 'dog', images: [URL_A] },
    ]);
    expect(draft.fields.extras).toEqual({
      bgm: true,
      payload: 'p',
      meta_data: '{"a":1}',
      callback_url: 'https://hooks.example/',
    });
  });

  it.each([
    ['text2video', { model: 'alphaq2-pro', prompt: 'x', images: [PNG] }, 'FieldUnwanted', 'images'],
    [
      'img2video',
      { model: 'alphaq2-pro', images: [PNG], subjects: [{ id: 'a', images: [PNG] }] },
      'FieldUnwanted',
      'subjects',
    ],
    ['img2video', { model: 'alphaq2-pro' }, 'FieldLacking', 'images'],
    ['img2video', { model: 'alphaq2-pro', images: [PNG, PNG] }, 'FieldItemCountOutOfRange', 'images'],
    [
      'start-end2video',
      { model: 'alphaq2-pro', images: [PNG, PNG, PNG] },
      'FieldItemCountOutOfRange',
      'images',
    ],
    ['reference2video', { model: 'alphaq2-pro', images: [] }, 'FieldLacking', 'subjects'],
    ['text2video', { prompt: 'x' }, 'FieldLacking', 'model'],
    ['text2video', { model: 'alphaq2-pro', duration: 2.5 }, 'FieldInvalid', 'duration'],
    ['text2video', { model: 'alphaq2-pro', prompt: 'a\u0000b' }, 'FieldInvalid', 'prompt'],
  ] as const)('refuses on %s: %j (%s)', (endpoint, body, reason, param) => {
    const refusal = refusalOf(endpoint, body);
    expect(refusal).toMatchObject({ code: 'invalid_request', param, options: { upstreamCode: reason } });
  });

  it('refuses a body that is no object as a BadRequest of the whole body', () => {
    const refusal = refusalOf('text2video', ['alphaq2-pro']);
    expect(refusal.param).toBeUndefined();
    expect(refusal.options.upstreamCode).toBeUndefined();
  });

  it('lists the URL images with the field naming each, leaving the Base64 ones to the rules', () => {
    const draft = toAlphaVideoDraft('reference2video', {
      model: 'alphaq2-pro',
      subjects: [
        { id: 'cat', images: [PNG, URL_A] },
        { id: 'dog', images: [URL_B] },
      ],
    });
    expect(urlImagesOf(draft)).toEqual([
      { url: URL_A, param: 'subjects[0].images[1]' },
      { url: URL_B, param: 'subjects[1].images[0]' },
    ]);
    const frames = toAlphaVideoDraft('start-end2video', { model: 'alphaq2-pro', images: [URL_A, PNG] });
    expect(urlImagesOf(frames)).toEqual([{ url: URL_A, param: 'images[0]' }]);
  });
});
