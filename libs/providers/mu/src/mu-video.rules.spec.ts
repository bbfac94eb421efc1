import type { VideoRequest } from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  refusedVideoPlan,
  videoCallOf,
  videoRequestOf,
} from '@gateway/providers-core/testing';
import { muVideoRules } from './mu-video.rules';

const FRAME = 'https://example.test/frame.png';
const IMAGE = { role: 'first_frame', url: FRAME, source: 'image' } as const;

const request = (fields: Partial<VideoRequest> = {}): VideoRequest =>
  videoRequestOf({ model: 'mu-2.3', prompt: 'a fox in the snow', images: [IMAGE], ...fields });
const planned = (fields: Partial<VideoRequest> = {}) =>
  acceptedVideoPlan(muVideoRules.planVideo(request(fields)));
const refusal = (fields: Partial<VideoRequest>) => refusedVideoPlan(muVideoRules.planVideo(request(fields)));

describe('muVideoRules', () => {
  it('serves mu-2.3 and mu-2.3-fast only', () => {
    expect(muVideoRules.servesVideoModel('mu-2.3')).toBe(true);
    expect(muVideoRules.servesVideoModel('mu-2.3-fast')).toBe(true);
    for (const model of ['mu-2.4', 'Mu-Video-2.3', 'mu-2.3 ', 'constructor', 'toString', '']) {
      expect(muVideoRules.servesVideoModel(model)).toBe(false);
    }
  });

  it('plans first-frame-to-video at the defaults: 6 s at 768P', () => {
    expect(muVideoRules.planVideo(request())).toEqual({
      ok: true,
      call: videoCallOf({
        family: 'mu',
        mode: 'first_frame',
        prompt: 'a fox in the snow',
        seconds: 6,
        resolution: '768p',
        size: '768P',
        images: [{ role: 'first_frame', url: FRAME }],
      }),
      warnings: [],
    });
  });

  it('plans first-frame-to-video from image, 10 s, with the wire switches from metadata', () => {
    const { call } = planned({
      seconds: 10,
      metadata: { prompt_optimizer: false, fast_pretreatment: true, aigc_watermark: false, other: 1 },
    });
    expect(call).toMatchObject({
      mode: 'first_frame',
      seconds: 10,
      images: [{ role: 'first_frame', url: FRAME }],
      extras: { prompt_optimizer: false, fast_pretreatment: true, aigc_watermark: false },
    });
  });

  it('takes the resolution from metadata.output_config.resolution, in any case', () => {
    const { call, warnings } = planned({
      resolution: '1080p',
      size: '1280x720',
      metadata: { output_config: { resolution: '1080p' } },
    });
    expect(call).toMatchObject({ resolution: '1080p', size: '1080P', seconds: 6 });
    expect(warnings).toEqual([
      'size was ignored: mu-2.3 takes the resolution from metadata.output_config.resolution',
    ]);
  });

  it('accepts a resolution word in size when metadata has none', () => {
    expect(planned({ resolution: '1080P', size: '1080P' }).call.size).toBe('1080P');
  });

  it('drops aspect_ratio and output_config.aspect_ratio with a warning each, never silently', () => {
    const { call, warnings } = planned({
      aspectRatio: '9:16',
      metadata: { output_config: { aspect_ratio: '1:1' } },
    });
    expect(call.aspectRatio).toBeNull();
    expect(warnings).toEqual([
      expect.stringMatching(/^aspect_ratio was ignored: mu-2\.3 has no aspect ratio/),
      expect.stringMatching(/^metadata\.output_config\.aspect_ratio was ignored/),
    ]);
  });

  it('reads one images[] entry as the first frame, as the unified style does', () => {
    expect(planned({ images: [{ role: 'reference', url: FRAME, source: 'images' }] }).call).toMatchObject({
      mode: 'first_frame',
      images: [{ role: 'first_frame', url: FRAME }],
    });
  });

  it.each(['mu-2.3', 'mu-2.3-fast'])(
    'needs an image for %s (image-to-video only) and plans it from the first frame without a prompt',
    (model) => {
      expect(refusal({ model, images: [] })).toEqual({
        ok: false,
        param: 'image',
        message: `${model} is image-to-video only: send the first frame in image`,
      });
      const { call } = planned({
        model,
        prompt: undefined,
        images: [
          { role: 'first_frame', url: 'data:image/png;base64,iVBORw0KGgo=', source: 'input_reference' },
        ],
      });
      expect(call).toMatchObject({ mode: 'first_frame', prompt: '' });
    },
  );

  it.each<[string, Partial<VideoRequest>, string, RegExp]>([
    [
      'a last frame',
      {
        images: [
          { role: 'first_frame', url: FRAME, source: 'image' },
          { role: 'last_frame', url: FRAME, source: 'metadata.last_frame_url' },
        ],
      },
      'metadata.last_frame_url',
      /image-to-video only: send one first frame in image \(last frames are not supported\)/,
    ],
    [
      'two reference images (a first and a last frame)',
      {
        images: [
          { role: 'reference', url: FRAME, source: 'images' },
          { role: 'reference', url: FRAME, source: 'images' },
        ],
      },
      'images',
      /last frames are not supported/,
    ],
    [
      'a reference beside a first frame',
      {
        images: [
          { role: 'first_frame', url: FRAME, source: 'image' },
          { role: 'reference', url: FRAME, source: 'images' },
        ],
      },
      'images',
      /send one image, the first frame, in image/,
    ],
    [
      'two first frames',
      {
        images: [
          { role: 'first_frame', url: FRAME, source: 'images' },
          { role: 'first_frame', url: FRAME, source: 'images' },
        ],
      },
      'images',
      /send one image, the first frame, in image/,
    ],
    [
      'a reference video',
      { clips: [{ type: 'video', url: FRAME }] },
      'metadata.video_url',
      /reference video is not supported/,
    ],
    ['subjects', { subjects: [{ id: 'a', images: [FRAME] }] }, 'subjects', /subjects are not supported/],
    ['a remix', { remixOf: { taskId: '1' } }, 'model', /cannot remix/],
  ])('refuses %s, saying which modes it has', (_, fields, param, message) => {
    const refused = refusal(fields);
    expect(refused.param).toBe(param);
    expect(refused.message).toMatch(message);
  });

  it.each([
    ['javascript:alert(1)'],
    ['ftp://example.test/a.png'],
    ['iVBORw0KGgo='],
    ['data:text/html;base64,PGI+'],
  ])('refuses the image %s', (url) => {
    expect(refusal({ images: [{ role: 'first_frame', url, source: 'image' }] })).toEqual({
      ok: false,
      param: 'image',
      message: 'image must be an http(s) URL or a data:image/…;base64, URI',
    });
  });

  it.each([5, 0, -6, 6.5, 11, Number.NaN, Number.POSITIVE_INFINITY, 1e308])(
    'refuses seconds %s, naming 6 or 10',
    (seconds) => {
      expect(refusal({ seconds })).toEqual({
        ok: false,
        param: 'seconds',
        message: 'seconds must be 6 or 10 for mu-2.3',
      });
    },
  );

  it('names duration in the unified style', () => {
    expect(refusal({ style: 'unified', seconds: 5 })).toMatchObject({
      param: 'duration',
      message: 'duration must be 6 or 10 for mu-2.3',
    });
  });

  it('refuses 10 s at 1080P, pointing to 768P', () => {
    expect(
      refusal({ seconds: 10, resolution: '1080P', metadata: { output_config: { resolution: '1080P' } } }),
    ).toEqual({
      ok: false,
      param: 'seconds',
      message: 'mu-2.3 makes 1080P videos of 6 seconds only; ask 768P for 10 seconds',
    });
  });

  it.each<[string, Partial<VideoRequest>, string]>([
    [
      '720P in output_config',
      { resolution: '720P', metadata: { output_config: { resolution: '720P' } } },
      'metadata.output_config.resolution',
    ],
    ['a pixel size', { resolution: '1280x720', size: '1280x720' }, 'size'],
    ['512P', { resolution: '512P', size: '512P' }, 'size'],
    ['a hostile string', { resolution: '768P\u0000', size: '768P\u0000' }, 'size'],
  ])('refuses the resolution %s, naming 768P or 1080P', (_, fields, param) => {
    expect(refusal(fields)).toEqual({
      ok: false,
      param,
      message: `${param} must be 768P or 1080P for mu-2.3 (mu takes a resolution, not a pixel size)`,
    });
  });

  it('bounds the prompt at 2000 characters (code points)', () => {
    expect(planned({ prompt: '🦊'.repeat(2000) }).call.prompt).toHaveLength(4000);
    expect(refusal({ prompt: 'a'.repeat(2001) })).toEqual({
      ok: false,
      param: 'prompt',
      message: 'prompt must be at most 2000 characters for mu-2.3',
    });
  });

  it.each([['yes'], [1], [null], [{}]])('refuses a wire switch that is not a boolean (%p)', (value) => {
    expect(refusal({ metadata: { prompt_optimizer: value } })).toEqual({
      ok: false,
      param: 'metadata.prompt_optimizer',
      message: 'metadata.prompt_optimizer must be true or false',
    });
  });
});
