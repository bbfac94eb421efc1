import type { VideoImage, VideoRequest } from './video-adapter';
import { framesOnlyVideoCall, nonFrameInputRefusal, videoFramesOf } from './video-frames.util';

const image = (
  role: VideoImage['role'],
  source: string,
  url = `https://images.test/${source}.png`,
): VideoImage => ({
  role,
  url,
  source,
});

describe('videoFramesOf', () => {
  it('reads no image as text, and keeps the roles a request gave', () => {
    expect(videoFramesOf([], 'm')).toEqual({ ok: true, mode: 'text' });
    const first = image('first_frame', 'image');
    const last = image('last_frame', 'metadata.last_frame_url');
    expect(videoFramesOf([first], 'm')).toEqual({ ok: true, mode: 'first_frame', first });
    expect(videoFramesOf([last, first], 'm')).toEqual({ ok: true, mode: 'first_last', first, last });
  });

  it('reads listed references as the first frame, then the last', () => {
    const [a, b] = [
      image('reference', 'images', 'https://a.test/1.png'),
      image('reference', 'images', 'https://a.test/2.png'),
    ];
    const asFirst = { ...a, role: 'first_frame' };
    expect(videoFramesOf([a], 'm')).toEqual({ ok: true, mode: 'first_frame', first: asFirst });
    expect(videoFramesOf([a, b], 'm')).toEqual({
      ok: true,
      mode: 'first_last',
      first: asFirst,
      last: { ...b, role: 'last_frame' },
    });
  });

  it.each([
    [
      'three references',
      [image('reference', 'images'), image('reference', 'images'), image('reference', 'images')],
      'images',
      'm takes at most 2 images: a first frame and a last frame',
    ],
    [
      'two first frames',
      [image('first_frame', 'image'), image('first_frame', 'input_reference')],
      'input_reference',
      'm takes at most 2 images: a first frame and a last frame',
    ],
    [
      'references beside a frame',
      [image('first_frame', 'image'), image('reference', 'images')],
      'images',
      'images cannot be combined with a first or last frame for m',
    ],
    [
      'a last frame alone',
      [image('last_frame', 'last_frame_image')],
      'last_frame_image',
      'a last frame needs a first frame for m',
    ],
  ])('refuses %s naming the field', (_case, images, param, message) => {
    expect(videoFramesOf(images, 'm')).toEqual({ ok: false, param, message });
  });
});

describe('nonFrameInputRefusal', () => {
  const request = (fields: Partial<VideoRequest>): VideoRequest => ({
    model: 'm',
    style: 'openai',
    images: [],
    clips: [],
    subjects: [],
    dimensions: {},
    extras: {},
    ...fields,
  });

  it('refuses subjects, then clips, then a remix, naming the field; passes frames only', () => {
    expect(nonFrameInputRefusal(request({ subjects: [{ id: 's', images: [] }] }))).toEqual({
      ok: false,
      param: 'subjects',
      message: 'm takes no subjects',
    });
    expect(
      nonFrameInputRefusal(request({ clips: [{ type: 'audio', url: 'https://a.test/a.mp3' }] })),
    ).toEqual({
      ok: false,
      param: 'metadata.video_url',
      message: 'm takes no reference video or audio',
    });
    expect(nonFrameInputRefusal(request({ remixOf: { taskId: 't' } }))).toMatchObject({ param: 'model' });
    expect(nonFrameInputRefusal(request({ images: [image('first_frame', 'image')] }))).toBeUndefined();
  });
});

describe('framesOnlyVideoCall', () => {
  it('fills what a frames-only family never sends and keeps an image’s role and URL only', () => {
    const first = image('first_frame', 'image');
    expect(
      framesOnlyVideoCall({
        family: 'f',
        mode: 'first_frame',
        prompt: 'p',
        seconds: 5,
        resolution: '720p',
        size: null,
        aspectRatio: '16:9',
        images: [first],
        extras: { seed: 1 },
      }),
    ).toEqual({
      kind: 'video',
      family: 'f',
      mode: 'first_frame',
      prompt: 'p',
      seconds: 5,
      resolution: '720p',
      size: null,
      aspectRatio: '16:9',
      images: [{ role: 'first_frame', url: first.url }],
      clips: [],
      subjects: [],
      metadata: null,
      extras: { seed: 1 },
      remixOf: null,
    });
  });
});
