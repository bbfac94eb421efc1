import type { VideoImage, VideoRequest } from '@gateway/providers-core';
import { acceptedVideoPlan, videoCallOf, videoRequestOf } from '@gateway/providers-core/testing';
import { PNG } from 'pngjs';
import { betaVideoRules, planBetaVideo } from './beta-video.rules';

const request = (fields: Partial<VideoRequest> = {}): VideoRequest =>
  videoRequestOf({ model: 'beta-video-3.0', prompt: 'a kite over the dunes', ...fields });
const planned = (fields: Partial<VideoRequest>) => acceptedVideoPlan(planBetaVideo(request(fields)));

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
const pngDataUrl = (width: number, height: number): string =>
  `data:image/png;base64,${PNG.sync.write(new PNG({ width, height }), { filterType: 0 }).toString('base64')}`;
const urlImage = (role: VideoImage['role'], source: string, name = source): VideoImage => ({
  role,
  url: `https://images.test/${name}.png`,
  source,
});

describe('betaVideoRules', () => {
  it('serves the two beta video models only', () => {
    expect(['beta-video-3.0', 'beta-video-2.0'].map(betaVideoRules.servesVideoModel)).toEqual([true, true]);
    expect(['beta-4.0', 'beta-video-3.0-pro', 'constructor'].map(betaVideoRules.servesVideoModel)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('plans text to video at 5 s, 720p and 16:9 when nothing else is asked', () => {
    expect(planBetaVideo(request())).toEqual({
      ok: true,
      call: videoCallOf({
        family: 'beta',
        prompt: 'a kite over the dunes',
        seconds: 5,
        resolution: '720p',
        size: null,
        aspectRatio: '16:9',
      }),
      warnings: [],
    });
  });

  it.each([
    ['720x1280', '9:16'],
    ['1280x720', '16:9'],
  ])('reads OpenAI-style size %s as 720p at %s', (size, ratio) => {
    const { call } = planned({ size, resolution: size });
    expect(call).toMatchObject({ resolution: '720p', aspectRatio: ratio });
  });

  it('lets size win over aspect_ratio in OpenAI style, and says so', () => {
    const plan = planned({ size: '720x1280', resolution: '720x1280', aspectRatio: '16:9' });
    expect(plan.call.aspectRatio).toBe('9:16');
    expect(plan.warnings).toEqual(['aspect_ratio is ignored: size 720x1280 gives 9:16']);
  });

  it.each([
    ['720P', '720p'],
    ['1080P', '1080p'],
    ['1080p', '1080p'],
  ])('reads unified size %s as resolution %s', (size, resolution) => {
    expect(planned({ style: 'unified', size, resolution: size }).call.resolution).toBe(resolution);
  });

  it('takes the unified ratios, and metadata.output_config.resolution over size', () => {
    const plan = planned({ style: 'unified', aspectRatio: '21:9', size: '720P', resolution: '1080P' });
    expect(plan.call).toMatchObject({ aspectRatio: '21:9', resolution: '1080p' });
    expect(planned({ resolution: '1080P' }).call.resolution).toBe('1080p');
  });

  it.each([5, 10, 15])('takes %i seconds', (seconds) => {
    expect(planned({ seconds }).call.seconds).toBe(seconds);
  });

  it('reads one image as the first frame and two as first and last, all URLs or all uploads', () => {
    const first = urlImage('first_frame', 'image');
    const last = urlImage('last_frame', 'metadata.last_frame_url');
    const plan = planned({ images: [first, last], aspectRatio: '1:1' });
    expect(plan.call).toMatchObject({
      mode: 'first_last',
      aspectRatio: null,
      images: [
        { role: 'first_frame', url: first.url },
        { role: 'last_frame', url: last.url },
      ],
    });
    expect(plan.warnings).toEqual([
      "aspect_ratio is ignored: beta-video-3.0 follows the first frame's aspect ratio",
    ]);
    const uploaded = { role: 'first_frame' as const, url: pngDataUrl(640, 360), source: 'input_reference' };
    expect(planned({ images: [uploaded], prompt: '' }).call).toMatchObject({
      mode: 'first_frame',
      prompt: '',
    });
  });

  it('takes OpenAI-style images[] in order as the first and last frame', () => {
    const images = [urlImage('reference', 'images', 'a'), urlImage('reference', 'images', 'b')];
    expect(planned({ images }).call.images).toEqual([
      { role: 'first_frame', url: images[0].url },
      { role: 'last_frame', url: images[1].url },
    ]);
  });

  it('passes metadata.seed and warns about the fields the wire has no place for', () => {
    const plan = planned({
      metadata: { seed: 42, output_config: { resolution: '720P' }, motion_level: 'pro' },
      extras: { watermark: false },
    });
    expect(plan.call.extras).toEqual({ seed: 42 });
    expect(plan.warnings).toEqual([
      'watermark is ignored: beta-video-3.0 has no such option',
      'metadata.motion_level is ignored: beta-video-3.0 has no such option',
    ]);
  });

  const hostile: Array<[string, Partial<VideoRequest>, string, string]> = [
    ['another model', { model: 'beta-4.0' }, 'model', 'beta-4.0 is not a beta video model'],
    ['seconds 7', { seconds: 7 }, 'seconds', 'seconds must be one of 5, 10, 15 for beta-video-3.0'],
    [
      'duration 20 in unified style',
      { style: 'unified', seconds: 20 },
      'duration',
      'duration must be one of 5, 10, 15 for beta-video-3.0',
    ],
    [
      'seconds NaN',
      { seconds: Number.NaN },
      'seconds',
      'seconds must be one of 5, 10, 15 for beta-video-3.0',
    ],
    [
      'size 1080P in OpenAI style',
      { size: '1080P' },
      'size',
      'size must be one of 720x1280, 1280x720 for beta-video-3.0',
    ],
    [
      'size 1280x720 in unified style',
      { style: 'unified', size: '1280x720' },
      'size',
      'size must be one of 720P, 1080P for beta-video-3.0',
    ],
    [
      'ratio 4:3 in OpenAI style',
      { aspectRatio: '4:3' },
      'aspect_ratio',
      'aspect_ratio must be one of 16:9, 9:16, 1:1 for beta-video-3.0',
    ],
    [
      'ratio 2:1 in unified style',
      { style: 'unified', aspectRatio: '2:1' },
      'aspect_ratio',
      'aspect_ratio must be one of 16:9, 9:16, 1:1, 4:3, 3:4, 21:9 for beta-video-3.0',
    ],
    [
      'resolution 4K in metadata',
      { resolution: '4K' },
      'metadata.output_config.resolution',
      'metadata.output_config.resolution must be one of 720P, 1080P for beta-video-3.0',
    ],
    [
      '1080P on beta-video-2.0',
      { model: 'beta-video-2.0', style: 'unified', size: '1080P', resolution: '1080P' },
      'size',
      'beta-video-2.0 is offered at 720P only',
    ],
    [
      'two frames on beta-video-2.0',
      {
        model: 'beta-video-2.0',
        images: [urlImage('reference', 'images', 'a'), urlImage('reference', 'images', 'b')],
      },
      'images',
      'beta-video-2.0 takes at most one image (the first frame)',
    ],
    [
      'three images',
      { images: [1, 2, 3].map((n) => urlImage('reference', 'images', String(n))) },
      'images',
      'beta-video-3.0 takes at most 2 images: a first frame and a last frame',
    ],
    [
      'a last frame alone',
      { images: [urlImage('last_frame', 'metadata.last_frame_url')] },
      'metadata.last_frame_url',
      'a last frame needs a first frame for beta-video-3.0',
    ],
    [
      'no prompt and no image',
      { prompt: '  ' },
      'prompt',
      'prompt is required for beta-video-3.0 without images',
    ],
    [
      'a prompt of 801 characters',
      { prompt: 'p'.repeat(801) },
      'prompt',
      'prompt must be at most 800 characters for beta-video-3.0',
    ],
    [
      'a file: URL',
      { images: [{ role: 'first_frame', url: 'file:///etc/passwd', source: 'image' }] },
      'image',
      'image must be an http(s) URL or an uploaded image for beta-video-3.0',
    ],
    [
      'a URL beside an upload',
      {
        images: [
          urlImage('first_frame', 'image'),
          { role: 'last_frame', url: pngDataUrl(640, 360), source: 'metadata.last_frame_url' },
        ],
      },
      'metadata.last_frame_url',
      'the frames must be all URLs or all uploaded images for beta-video-3.0',
    ],
    [
      'an upload with a short side of 300',
      { images: [{ role: 'first_frame', url: pngDataUrl(640, 300), source: 'input_reference' }] },
      'input_reference',
      'input_reference must have a short side of at least 320 pixels for beta-video-3.0',
    ],
    [
      'an upload over 3:1',
      { images: [{ role: 'first_frame', url: pngDataUrl(1300, 400), source: 'input_reference' }] },
      'input_reference',
      'input_reference must have sides within 3:1 for beta-video-3.0',
    ],
    [
      'an upload that is no image',
      { images: [{ role: 'first_frame', url: 'data:image/png;base64,aGVsbG8=', source: 'input_reference' }] },
      'input_reference',
      'input_reference is not a readable image for beta-video-3.0',
    ],
    [
      'a seed of -2',
      { metadata: { seed: -2 } },
      'metadata.seed',
      'metadata.seed must be an integer from -1 (random) for beta-video-3.0',
    ],
    ['subjects', { subjects: [{ id: 's', images: [] }] }, 'subjects', 'beta-video-3.0 takes no subjects'],
    [
      'a reference video',
      { clips: [{ type: 'video', url: 'https://v.test/a.mp4' }] },
      'metadata.video_url',
      'beta-video-3.0 takes no reference video or audio',
    ],
    ['a remix', { remixOf: { taskId: '1' } }, 'model', 'beta-video-3.0 has no remix'],
  ];
  it.each(hostile)('refuses %s naming %s', (_case, fields, param, message) => {
    expect(planBetaVideo(request(fields))).toEqual({ ok: false, param, message });
  });

  it('refuses an upload over 4.7 MB', () => {
    const big = {
      role: 'first_frame' as const,
      url: `data:image/png;base64,${Buffer.alloc(5_000_000).toString('base64')}`,
      source: 'image',
    };
    expect(planBetaVideo(request({ images: [big] }))).toMatchObject({
      ok: false,
      message: 'image must be at most 4.7 MB for beta-video-3.0',
    });
  });
});
