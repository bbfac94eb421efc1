import type { SerialisableObject, VideoPlan, VideoRequest } from '@gateway/providers-core';
import { videoCallOf } from '@gateway/providers-core/testing';
import { planTheta2Video, theta2VideoRules } from './theta2-video.rules';

const text = (value: string) => ({ type: 'text', text: value });
const image = (url: string, role?: string) => ({
  type: 'image_url',
  image_url: { url },
  ...(role ? { role } : {}),
});
const video = (seconds: number, url = 'https://cdn.test/v.mp4') => ({
  type: 'video_url',
  video_url: { url, duration: seconds },
  role: 'reference_video',
});
const audio = (seconds: number, url = 'https://cdn.test/a.mp3') => ({
  type: 'audio_url',
  audio_url: { url, duration: seconds },
  role: 'reference_audio',
});
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function request(content: unknown[], fields: Partial<VideoRequest> = {}): VideoRequest {
  return {
    model: 'eta-theta-2-0-260128',
    style: 'official',
    images: [],
    clips: [],
    subjects: [],
    dimensions: {},
    extras: { content: content as SerialisableObject[] },
    ...fields,
  };
}

function planned(content: unknown[], fields: Partial<VideoRequest> = {}) {
  const plan = planTheta2Video(request(content, fields));
  if (!plan.ok) throw new Error(`refused: ${plan.message}`);
  return plan;
}

describe('theta 2.0 video rules', () => {
  it('serves the two versioned ids and the compatible names', () => {
    const names = [
      'eta-theta-2-0-260128',
      'eta-theta-2-0-fast-260128',
      'theta-2.0-pro',
      'theta-2.0-lite',
      'theta-2.0-fast',
    ];
    expect(names.map(theta2VideoRules.servesVideoModel)).toEqual([true, true, true, true, true]);
    expect(theta2VideoRules.servesVideoModel('eta-theta-1-0-pro_720p')).toBe(false);
  });

  it('plans text to video at 5 s and 720p by default, the ratio left to the upstream', () => {
    const plan = planned([text('a kite over the sea')]);
    expect(plan.call).toEqual(
      videoCallOf({
        family: 'theta',
        prompt: 'a kite over the sea',
        seconds: 5,
        resolution: '720p',
        size: null,
      }),
    );
    expect(plan.warnings).toEqual([]);
  });

  it('reads references of every kind, asset:// ids included, with their roles', () => {
    const plan = planned(
      [
        audio(4, 'asset://asset-20261124-a'),
        image('asset://asset-20261124-i', 'reference_image'),
        video(5),
        image(PNG),
        text('the kite dances to the theme'),
      ],
      { metadata: { duration: 10, ratio: '21:9', resolution: '1080P', seed: 7, generate_audio: true } },
    );
    expect(plan.call).toMatchObject({
      mode: 'reference',
      prompt: 'the kite dances to the theme',
      seconds: 10,
      resolution: '1080p',
      aspectRatio: '21:9',
      images: [
        { role: 'reference', url: 'asset://asset-20261124-i' },
        { role: 'reference', url: PNG },
      ],
      clips: [
        { type: 'audio', url: 'asset://asset-20261124-a', role: 'reference_audio' },
        { type: 'video', url: 'https://cdn.test/v.mp4', role: 'reference_video' },
      ],
      extras: { seed: 7, generate_audio: true },
    });
  });

  it('makes a lone image without role the first frame, and takes first and last frames', () => {
    expect(planned([image(PNG)]).call).toMatchObject({
      mode: 'first_frame',
      images: [{ role: 'first_frame' }],
    });
    const plan = planned([
      text('dusk'),
      image(PNG, 'first_frame'),
      image('https://cdn.test/b.png', 'last_frame'),
    ]);
    expect(plan.call.mode).toBe('first_last');
  });

  it('lets the model decide with duration -1, and names what it ignores', () => {
    const plan = planned([text('x')], {
      metadata: { duration: -1, fps: 30 },
      extras: { content: [text('x')], style: 'anime' },
    });
    expect(plan.call.seconds).toBe(-1);
    expect(plan.warnings).toEqual([
      'style is ignored: eta-theta-2-0-260128 has no such option',
      'metadata.fps is ignored: eta-theta-2-0-260128 has no such option',
    ]);
  });

  const nine = Array.from({ length: 9 }, (_, index) =>
    image(`https://cdn.test/${index}.png`, 'reference_image'),
  );
  it('takes each limit at its bound', () => {
    expect(planned([...nine, text('x')]).call.images).toHaveLength(9);
    expect(planned([video(5), video(5), video(5)]).call.clips).toHaveLength(3);
    expect(planned([video(2)]).call.clips).toHaveLength(1);
    expect(planned([video(15), audio(5), audio(5), audio(5)]).call.clips).toHaveLength(4);
    expect(planned([text('x')], { metadata: { duration: 15 } }).call.seconds).toBe(15);
    expect(
      planned([text('x')], { model: 'theta-2.0-fast', metadata: { resolution: '720p' } }).call.resolution,
    ).toBe('720p');
  });

  const hostile: Array<[string, unknown[], Partial<VideoRequest>, string, string]> = [
    [
      '10 images',
      [...nine, image(PNG, 'reference_image')],
      {},
      'content',
      'content may hold at most 9 images; it has 10',
    ],
    [
      '4 videos',
      [video(3), video(3), video(3), video(3)],
      {},
      'content',
      'content may hold at most 3 videos; it has 4',
    ],
    [
      'videos of 16 s together',
      [video(8), video(8)],
      {},
      'content',
      'the videos must last 2 to 15 seconds together; they last 16',
    ],
    [
      'a video of 1.5 s',
      [video(1.5)],
      {},
      'content',
      'the videos must last 2 to 15 seconds together; they last 1.5',
    ],
    [
      '4 audios',
      [video(5), audio(2), audio(2), audio(2), audio(2)],
      {},
      'content',
      'content may hold at most 3 audios; it has 4',
    ],
    [
      'audios of 16 s together',
      [video(5), audio(8), audio(8)],
      {},
      'content',
      'the audios may last 15 seconds at most together; they last 16',
    ],
    [
      'an audio alone',
      [text('x'), audio(5)],
      {},
      'content',
      'an audio needs at least one image or video beside it',
    ],
    [
      'a first frame with a reference image',
      [image(PNG, 'first_frame'), image(PNG, 'reference_image')],
      {},
      'content',
      'first_frame and last_frame cannot be combined with reference_image, reference_video or reference_audio items',
    ],
    [
      'a last frame with a reference video',
      [image(PNG, 'first_frame'), image(PNG, 'last_frame'), video(5)],
      {},
      'content',
      'first_frame and last_frame cannot be combined with reference_image, reference_video or reference_audio items',
    ],
    [
      'a last frame alone',
      [image(PNG, 'last_frame')],
      {},
      'content',
      'a last_frame image needs a first_frame image',
    ],
    [
      'a video without its duration',
      [{ type: 'video_url', video_url: { url: 'https://cdn.test/v.mp4' } }],
      {},
      'content[0].video_url.duration',
      "content[0].video_url.duration is required: the video's length in seconds (the gateway checks the totals before it holds and never downloads a clip)",
    ],
    [
      'an http:// image',
      [image('http://cdn.test/a.png')],
      {},
      'content[0].image_url.url',
      'content[0].image_url.url must be an https URL, a Base64 data:image/ URL or asset://<id> for eta-theta-2-0-260128',
    ],
    [
      'a data: video',
      [{ type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAA', duration: 5 } }],
      {},
      'content[0].video_url.url',
      'content[0].video_url.url must be an https URL or asset://<id> for eta-theta-2-0-260128',
    ],
    [
      'an image role on a video',
      [{ ...video(5), role: 'reference_image' }],
      {},
      'content[0].role',
      'content[0].role must be reference_video for a video',
    ],
    [
      'an unknown item type',
      [{ type: 'file' }],
      {},
      'content[0].type',
      'content[0].type must be one of text, image_url, video_url, audio_url',
    ],
    [
      'two texts',
      [text('a'), text('b')],
      {},
      'content[1]',
      'content may hold one text item; content[1] is a second',
    ],
    [
      'an empty content',
      [],
      {},
      'content',
      'content must be a non-empty array of text, image_url, video_url and audio_url items',
    ],
    [
      '3 seconds',
      [text('x')],
      { metadata: { duration: 3 } },
      'metadata.duration',
      'metadata.duration must be a whole number from 4 to 15, or -1 to let eta-theta-2-0-260128 decide',
    ],
    [
      '16 seconds',
      [text('x')],
      { metadata: { duration: 16 } },
      'metadata.duration',
      'metadata.duration must be a whole number from 4 to 15, or -1 to let eta-theta-2-0-260128 decide',
    ],
    [
      'ratio 2:1',
      [text('x')],
      { metadata: { ratio: '2:1' } },
      'metadata.ratio',
      'metadata.ratio must be one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive for eta-theta-2-0-260128',
    ],
    [
      '1080p on the fast model',
      [text('x')],
      { model: 'eta-theta-2-0-fast-260128', metadata: { resolution: '1080p' } },
      'metadata.resolution',
      'metadata.resolution must be one of 480p, 720p for eta-theta-2-0-fast-260128',
    ],
    [
      'the OpenAI style',
      [text('x')],
      { style: 'openai' },
      'model',
      'eta-theta-2-0-260128 is served at POST /v1/video/generations, with content[]',
    ],
  ];
  it.each(hostile)('refuses %s naming %s', (_case, content, fields, param, message) => {
    expect(planTheta2Video(request(content, fields))).toEqual<VideoPlan>({ ok: false, param, message });
  });
});
