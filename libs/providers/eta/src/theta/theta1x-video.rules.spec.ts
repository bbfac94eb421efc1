import type { VideoImage, VideoRequest } from '@gateway/providers-core';
import { acceptedVideoPlan, videoCallOf, videoRequestOf } from '@gateway/providers-core/testing';
import { thetaVideoAdapter } from './theta-video.adapter';
import { planTheta1xVideo } from './theta1x-video.rules';

const request = (fields: Partial<VideoRequest> = {}): VideoRequest =>
  videoRequestOf({ model: 'eta-theta-1-0-pro_720p', prompt: 'a paper boat on a pond', ...fields });
const planned = (fields: Partial<VideoRequest>) => acceptedVideoPlan(planTheta1xVideo(request(fields)));

const FIRST: VideoImage = {
  role: 'first_frame',
  url: 'data:image/png;base64,iVBORw0KGgo=',
  source: 'first_frame_image',
};
const LAST: VideoImage = {
  role: 'last_frame',
  url: 'data:image/jpeg;base64,/9j/4AAQ',
  source: 'last_frame_image',
};

describe('theta 1.x video rules', () => {
  it('serves the suffixed 1.0 and 1.5 pro names only', () => {
    const names = [
      'eta-theta-1-0-pro_480p',
      'eta-theta-1-5-pro_1080p',
      'eta-theta-1-0-pro',
      'eta-theta-1-0-pro_4k',
    ];
    expect(names.map(thetaVideoAdapter.servesVideoModel)).toEqual([true, true, false, false]);
    expect(thetaVideoAdapter.planVideo(request({ model: 'eta-theta-9-0' }))).toEqual({
      ok: false,
      param: 'model',
      message: 'eta-theta-9-0 is not a theta video model',
    });
  });

  it('plans text to video at the suffix resolution, 5 s, the ratio left to the upstream', () => {
    expect(planTheta1xVideo(request({ model: 'eta-theta-1-5-pro_1080p' }))).toEqual({
      ok: true,
      call: videoCallOf({
        family: 'theta',
        prompt: 'a paper boat on a pond',
        seconds: 5,
        resolution: '1080p',
        size: null,
      }),
      warnings: [],
    });
  });

  it.each([4, 8, 11])('takes %i seconds', (seconds) => {
    expect(planned({ seconds }).call.seconds).toBe(seconds);
  });

  it('takes the first and last frame files, and keep_ratio on 1.0 with a first frame', () => {
    const plan = planned({ images: [FIRST, LAST], size: 'keep_ratio', resolution: 'keep_ratio', prompt: '' });
    expect(plan.call).toMatchObject({
      mode: 'first_last',
      aspectRatio: 'keep_ratio',
      images: [
        { role: 'first_frame', url: FIRST.url },
        { role: 'last_frame', url: LAST.url },
      ],
    });
    expect(plan.warnings).toEqual([]);
  });

  it('sends keep_ratio as adaptive where the wire does not show it, and says so', () => {
    const plan = planned({ model: 'eta-theta-1-5-pro_720p', images: [FIRST], size: 'keep_ratio' });
    expect(plan.call.aspectRatio).toBe('adaptive');
    expect(plan.warnings).toEqual([
      'size keep_ratio is sent as adaptive: eta-theta-1-5-pro_720p keeps the ratio of a first frame that way',
    ]);
    expect(planned({ size: 'keep_ratio' }).call.aspectRatio).toBe('adaptive');
  });

  it('takes a wire ratio from aspect_ratio or metadata.ratio, size winning over both', () => {
    expect(planned({ aspectRatio: '21:9' }).call.aspectRatio).toBe('21:9');
    expect(planned({ metadata: { ratio: '3:4' } }).call.aspectRatio).toBe('3:4');
    const plan = planned({ size: 'adaptive', aspectRatio: '1:1' });
    expect(plan.call.aspectRatio).toBe('adaptive');
    expect(plan.warnings).toEqual(['aspect_ratio is ignored: size adaptive sets the ratio']);
  });

  it('passes the metadata fields the version takes, and names the others', () => {
    const metadata = {
      seed: 11,
      camera_fixed: true,
      watermark: false,
      generate_audio: true,
      draft: true,
      fps: 30,
    };
    const on15 = planned({ model: 'eta-theta-1-5-pro_480p', metadata });
    expect(on15.call.extras).toEqual({
      seed: 11,
      camera_fixed: true,
      watermark: false,
      generate_audio: true,
      draft: true,
    });
    expect(on15.warnings).toEqual(['metadata.fps is ignored: eta-theta-1-5-pro_480p has no such option']);
    const on10 = planned({ metadata, extras: { style: 'anime' } });
    expect(on10.call.extras).toEqual({ seed: 11, camera_fixed: true, watermark: false });
    expect(on10.warnings).toEqual([
      'metadata.generate_audio is ignored: eta-theta-1-0-pro_720p has no such option',
      'metadata.draft is ignored: eta-theta-1-0-pro_720p has no such option',
      'style is ignored: eta-theta-1-0-pro_720p has no such option',
      'metadata.fps is ignored: eta-theta-1-0-pro_720p has no such option',
    ]);
  });

  it('accepts a resolution asked elsewhere when it is the suffix', () => {
    expect(planned({ resolution: '720P', metadata: { resolution: '720p' } }).call.resolution).toBe('720p');
  });

  const hostile: Array<[string, Partial<VideoRequest>, string, string]> = [
    [
      '3 seconds',
      { seconds: 3 },
      'seconds',
      'seconds must be a whole number from 4 to 11 for eta-theta-1-0-pro_720p',
    ],
    [
      '12 seconds in unified style',
      { style: 'unified', seconds: 12 },
      'duration',
      'duration must be a whole number from 4 to 11 for eta-theta-1-0-pro_720p',
    ],
    [
      '4.5 seconds',
      { seconds: 4.5 },
      'seconds',
      'seconds must be a whole number from 4 to 11 for eta-theta-1-0-pro_720p',
    ],
    [
      'size 1280x720',
      { size: '1280x720', resolution: '1280x720' },
      'size',
      'size must be one of keep_ratio, adaptive for eta-theta-1-0-pro_720p',
    ],
    [
      'aspect_ratio 2:1',
      { aspectRatio: '2:1' },
      'aspect_ratio',
      'aspect_ratio must be one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive for eta-theta-1-0-pro_720p',
    ],
    [
      'metadata.ratio as a number',
      { metadata: { ratio: 1.5 } },
      'metadata.ratio',
      'metadata.ratio must be one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive for eta-theta-1-0-pro_720p',
    ],
    [
      '1080p asked of a _720p model',
      { resolution: '1080P' },
      'metadata.output_config.resolution',
      'the resolution of eta-theta-1-0-pro_720p is 720p, set by its name; use eta-theta-1-0-pro_1080p for another',
    ],
    [
      'metadata.resolution 480p of a _720p model',
      { metadata: { resolution: '480p' } },
      'metadata.resolution',
      'the resolution of eta-theta-1-0-pro_720p is 720p, set by its name; use eta-theta-1-0-pro_480p for another',
    ],
    [
      'an http:// frame',
      { images: [{ role: 'first_frame', url: 'http://images.test/a.png', source: 'image' }] },
      'image',
      'image must be an https URL or an uploaded image for eta-theta-1-0-pro_720p',
    ],
    [
      'a data: URL of a video',
      { images: [{ role: 'first_frame', url: 'data:video/mp4;base64,AAAA', source: 'first_frame_image' }] },
      'first_frame_image',
      'first_frame_image must be an https URL or an uploaded image for eta-theta-1-0-pro_720p',
    ],
    [
      'a last frame alone',
      { images: [LAST] },
      'last_frame_image',
      'a last frame needs a first frame for eta-theta-1-0-pro_720p',
    ],
    [
      'no prompt without a frame',
      { prompt: '' },
      'prompt',
      'prompt is required for eta-theta-1-0-pro_720p without a first frame',
    ],
    [
      'a seed over 2^32-1',
      { metadata: { seed: 2 ** 32 } },
      'metadata.seed',
      'metadata.seed must be an integer from -1 to 4294967295 for eta-theta-1-0-pro_720p',
    ],
    [
      'camera_fixed as text',
      { metadata: { camera_fixed: 'yes' } },
      'metadata.camera_fixed',
      'metadata.camera_fixed must be a boolean',
    ],
    [
      'subjects',
      { subjects: [{ id: 'a', images: [] }] },
      'subjects',
      'eta-theta-1-0-pro_720p takes no subjects',
    ],
    [
      'a reference audio',
      { clips: [{ type: 'audio', url: 'https://a.test/a.mp3' }] },
      'metadata.video_url',
      'eta-theta-1-0-pro_720p takes no reference video or audio',
    ],
  ];
  it.each(hostile)('refuses %s naming %s', (_case, fields, param, message) => {
    expect(planTheta1xVideo(request(fields))).toEqual({ ok: false, param, message });
  });
});
