import { PNG } from 'pngjs';
import { GatewayError } from '@gateway/errors';
import { toOpenAiVideoRequest, toRemixVideoRequest, toUnifiedVideoRequest } from './video-request.mapper';

const png = PNG.sync.write(new PNG({ width: 2, height: 2 }));
const PNG_URI = `data:image/png;base64,${png.toString('base64')}`;
const URL_A = 'https://images.example.test/a.png';
const URL_B = 'https://images.example.test/b.png';
const URL_C = 'https://images.example.test/c.png';

function refusal(read: () => unknown): { message: string; param?: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof GatewayError) return { message: error.message, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('OpenAI-style video requests', () => {
  it('reads the fields, keeps the model name as sent and the unnamed fields as extras', () => {
    const draft = toOpenAiVideoRequest({
      model: 'gamma-2.6-motion-pro-1080p',
      prompt: 'A kite',
      seconds: '8',
      size: '1280x720',
      aspect_ratio: '16:9',
      metadata: { scene_type: 'motion_control' },
      watermark: false,
    });
    expect(draft.modelName).toBe('gamma-2.6-motion-pro-1080p');
    expect(draft.fields).toEqual({
      style: 'openai',
      prompt: 'A kite',
      seconds: 8,
      resolution: '1280x720',
      size: '1280x720',
      aspectRatio: '16:9',
      images: [],
      clips: [],
      subjects: [],
      metadata: { scene_type: 'motion_control' },
      extras: { watermark: false },
    });
  });

  it.each([
    [{ seconds: '12', duration: 8, metadata: { seconds: 4 } }, 12],
    [{ duration: 8, metadata: { seconds: 4 } }, 8],
    [{ metadata: { seconds: '4', duration: 6, video_duration: 10 } }, 4],
    [{ metadata: { duration: 6, video_duration: 10 } }, 6],
    [{ metadata: { video_duration: 10 } }, 10],
    [{ seconds: null, metadata: {} }, undefined],
  ])('takes the duration by precedence from %j', (fields, seconds) => {
    expect(toOpenAiVideoRequest({ model: 'delta-2', prompt: 'x', ...fields }).fields.seconds).toBe(seconds);
  });

  it.each([
    [{ size: '1280x720', metadata: { output_config: { resolution: '1080P' } } }, '1080P'],
    [{ size: '1280x720', metadata: { output_config: {} } }, '1280x720'],
    [{}, undefined],
  ])('takes the resolution by precedence from %j', (fields, resolution) => {
    expect(toOpenAiVideoRequest({ model: 'delta-2', prompt: 'x', ...fields }).fields.resolution).toBe(
      resolution,
    );
  });

  it('gives images their generic roles, uploads as data: URIs of the type their bytes say', () => {
    const draft = toOpenAiVideoRequest(
      {
        model: 'zeta-video-3',
        prompt: 'x',
        image: URL_A,
        images: [URL_B],
        metadata: { last_frame_url: URL_C, video_url: 'https://clips.example.test/v.mp4' },
      },
      [],
    );
    expect(draft.fields.images).toEqual([
      { role: 'first_frame', url: URL_A, source: 'image' },
      { role: 'last_frame', url: URL_C, source: 'metadata.last_frame_url' },
      { role: 'reference', url: URL_B, source: 'images' },
    ]);
    expect(draft.fields.clips).toEqual([
      {
        type: 'video',
        url: 'https://clips.example.test/v.mp4',
        role: 'reference',
        source: 'metadata.video_url',
      },
    ]);
  });

  it.each([
    [1, ['first_frame']],
    [2, ['first_frame', 'last_frame']],
    [3, ['reference', 'reference', 'reference']],
  ])('reads %i input_reference files by count', (count, roles) => {
    const uploads = Array.from({ length: count }, () => PNG_URI);
    const { images } = toOpenAiVideoRequest({ model: 'zeta-video-3', prompt: 'x' }, uploads).fields;
    expect(images.map((image) => image.role)).toEqual(roles);
    expect(images.every((image) => image.source === 'input_reference' && image.url === PNG_URI)).toBe(true);
  });

  it('keeps the frame files of the eta-theta 1.x style with their roles', () => {
    const frames = [
      { role: 'first_frame' as const, url: PNG_URI, source: 'first_frame_image' },
      { role: 'last_frame' as const, url: PNG_URI, source: 'last_frame_image' },
    ];
    const { images } = toOpenAiVideoRequest(
      { model: 'eta-theta-1-0-pro_720p', prompt: 'x' },
      [],
      frames,
    ).fields;
    expect(images).toEqual(frames);
  });

  it('takes input_reference as JSON: a URL, a data: URI, or {image_url}', () => {
    const read = (value: unknown) =>
      toOpenAiVideoRequest({ model: 'delta-2', prompt: 'x', input_reference: value }).fields.images;
    expect(read(URL_A)).toEqual([{ role: 'first_frame', url: URL_A, source: 'input_reference' }]);
    expect(read({ image_url: PNG_URI })[0].url).toBe(PNG_URI);
    expect(read(PNG_URI.replace('image/png', 'image/jpeg'))[0].url).toBe(PNG_URI);
  });

  it.each([
    ['a data: URI that is not Base64', { image: 'data:image/png;base64,@@@@' }, 'image'],
    ['a data: URI of bytes that are no image', { images: ['data:image/png;base64,aGVsbG8='] }, 'images[0]'],
    ['a scheme other than http(s)', { image: 'ftp://files.example.test/a.png' }, 'image'],
    ['bare Base64', { image: png.toString('base64') }, 'image'],
    ['a file id', { input_reference: { file_id: 'file_1' } }, 'input_reference.file_id'],
    [
      'a duration in metadata that is no whole number',
      { metadata: { duration: 'long' } },
      'metadata.duration',
    ],
    [
      'a resolution that is no string',
      { metadata: { output_config: { resolution: 720 } } },
      'metadata.output_config.resolution',
    ],
    ['a reference video that is no URL', { metadata: { video_url: 'clip.mp4' } }, 'metadata.video_url'],
    ['NUL in a passed-through field', { style: 'a\u0000b' }, 'style'],
    ['a lone surrogate in metadata', { metadata: { note: '\ud800' } }, 'metadata.note'],
    ['no prompt', { prompt: undefined }, 'prompt'],
  ])('refuses %s naming the field', (_case, fields, param) => {
    expect(refusal(() => toOpenAiVideoRequest({ model: 'delta-2', prompt: 'x', ...fields })).param).toBe(
      param,
    );
  });
});

describe('unified video requests', () => {
  it.each([
    [[], []],
    [[URL_A], ['first_frame']],
    [
      [URL_A, URL_B],
      ['first_frame', 'last_frame'],
    ],
  ])('selects the mode by the number of images: %j', (images, roles) => {
    const draft = toUnifiedVideoRequest({ model: 'delta-2', prompt: 'x', images, duration: 10 });
    expect(draft.fields.style).toBe('unified');
    expect(draft.fields.seconds).toBe(10);
    expect(draft.fields.images.map((image) => image.role)).toEqual(roles);
  });

  it('reads subjects and keeps the delta extras as extras', () => {
    const draft = toUnifiedVideoRequest({
      model: 'delta-2',
      prompt: '@cat on a roof',
      subjects: [{ id: 'cat', images: [URL_A], voice_id: 'v1' }],
      watermark: false,
      private: true,
      style: 'anime',
      storyboard: [{ scene: 1 }],
      orientation: 'landscape',
    });
    expect(draft.fields.subjects).toEqual([{ id: 'cat', images: [URL_A], voiceId: 'v1' }]);
    expect(draft.fields.extras).toEqual({
      watermark: false,
      private: true,
      style: 'anime',
      storyboard: [{ scene: 1 }],
      orientation: 'landscape',
    });
  });
});

describe('remix requests', () => {
  it('needs a prompt and takes the model only when given', () => {
    expect(toRemixVideoRequest({ prompt: 'longer' }).modelName).toBeUndefined();
    expect(toRemixVideoRequest({ prompt: 'longer', model: 'epsilon_3_1-extend' }).modelName).toBe(
      'epsilon_3_1-extend',
    );
    expect(refusal(() => toRemixVideoRequest({})).param).toBe('prompt');
  });
});
