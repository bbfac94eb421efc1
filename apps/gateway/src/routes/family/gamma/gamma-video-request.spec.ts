import { PNG } from 'pngjs';
import { refusalOf } from '../../../../test/gateway-refusal';
import { toGammaVideoDraft } from './gamma-video-request';

const FIRST = 'https://img.example/first.png';
const LAST = 'https://img.example/last.png';
const REFERENCE = 'https://img.example/reference.png';
const CLIP = 'https://img.example/motion.mp4';
const PNG_BASE64 = PNG.sync.write(new PNG({ width: 2, height: 2 })).toString('base64');

describe('a §5.8 create body read for the gamma rules', () => {
  it('maps text2video: model name, duration, ratio, sound, mode, negative prompt, external id', () => {
    const { draft, warnings } = toGammaVideoDraft('text2video', {
      model_name: 'gamma-v2-6',
      prompt: 'a fox runs',
      negative_prompt: 'rain',
      mode: 'pro',
      duration: '10',
      aspect_ratio: '9:16',
      sound: 'on',
      external_task_id: 'mine-7',
    });
    expect(warnings).toEqual([]);
    expect(draft).toEqual({
      modelName: 'gamma-2.6',
      fields: {
        style: 'official',
        prompt: 'a fox runs',
        seconds: 10,
        aspectRatio: '9:16',
        images: [],
        clips: [],
        subjects: [],
        metadata: {
          output_config: { audio_generation: 'Enabled' },
          motion_level: 'pro',
          external_task_id: 'mine-7',
        },
        extras: { negative_prompt: 'rain' },
      },
    });
  });

  it('keeps a gateway model name, combined ones included, as given', () => {
    expect(
      toGammaVideoDraft('text2video', { model_name: 'gamma-2.6-motion-pro-1080p', prompt: 'x' }).draft
        .modelName,
    ).toBe('gamma-2.6-motion-pro-1080p');
    expect(
      toGammaVideoDraft('text2video', { model_name: 'gamma-v3-omni', prompt: 'x' }).draft.modelName,
    ).toBe('gamma-3.0-omni');
  });

  it('reads image2video frames, and raw Base64 as a data: URI (which the rules then refuse)', () => {
    const { draft } = toGammaVideoDraft('image2video', {
      model_name: 'gamma-v2-6',
      image: FIRST,
      image_tail: PNG_BASE64,
    });
    expect(draft.fields.images).toEqual([
      { role: 'first_frame', url: FIRST, source: 'image' },
      { role: 'last_frame', url: `data:image/png;base64,${PNG_BASE64}`, source: 'image_tail' },
    ]);
  });

  it('reads omni-video lists: frames by type, references without, videos with their refer_type', () => {
    const { draft } = toGammaVideoDraft('omni-video', {
      model_name: 'gamma-v3-omni',
      prompt: 'x',
      image_list: [
        { image_url: FIRST, type: 'first_frame' },
        { image_url: LAST, type: 'end_frame' },
        { image_url: REFERENCE },
      ],
      video_list: [{ video_url: CLIP, refer_type: 'base' }],
    });
    expect(draft.fields.images).toEqual([
      { role: 'first_frame', url: FIRST, source: 'image_list[0].image_url' },
      { role: 'last_frame', url: LAST, source: 'image_list[1].image_url' },
      { role: 'reference', url: REFERENCE, source: 'image_list[2].image_url' },
    ]);
    expect(draft.fields.clips).toEqual([
      { type: 'video', url: CLIP, role: 'base', source: 'video_list[0].video_url' },
    ]);
  });

  it('sends keep_original_sound through metadata.file_infos, the one place it exists', () => {
    const { draft } = toGammaVideoDraft('omni-video', {
      model_name: 'gamma-v3-omni',
      prompt: 'x',
      image_list: [{ image_url: REFERENCE }, { image_url: LAST, type: 'end_frame' }],
      video_list: [{ video_url: CLIP, refer_type: 'feature', keep_original_sound: true }],
    });
    expect(draft.fields.metadata).toEqual({
      file_infos: [
        { type: 'Url', category: 'Image', url: REFERENCE },
        { type: 'Url', category: 'Video', url: CLIP, reference_type: 'feature', keep_original_sound: true },
      ],
    });
    expect(draft.fields.images).toEqual([
      { role: 'last_frame', url: LAST, source: 'image_list[1].image_url' },
    ]);
    expect(draft.fields.clips).toEqual([]);
  });

  it('names the fields no gamma channel takes in warnings', () => {
    const { warnings } = toGammaVideoDraft('image2video', {
      model_name: 'gamma-v2-6',
      image: FIRST,
      cfg_scale: 0.5,
      callback_url: 'https://me.example/hook',
      watermark_info: { enabled: true },
      novel_field: 1,
    });
    expect(warnings).toEqual([
      'cfg_scale is ignored: gamma channels have no such option',
      'callback_url is ignored: gamma channels have no such option',
      'watermark_info is ignored: gamma channels have no such option',
      'novel_field is ignored: gamma channels have no such option',
    ]);
  });

  it.each([
    ['text2video', { model_name: 'gamma-v2-6', prompt: 'x', image: FIRST }, 'image', 'image2video'],
    [
      'image2video',
      { model_name: 'gamma-v2-6', prompt: 'x', aspect_ratio: '1:1', image: FIRST },
      'aspect_ratio',
      'text2video',
    ],
    ['text2video', { model_name: 'gamma-v2-6', prompt: 'x', image_list: [] }, 'image_list', 'omni-video'],
    ['image2video', { model_name: 'gamma-v2-6', prompt: 'x' }, 'image', 'required'],
    ['text2video', { prompt: 'x' }, 'model_name', 'model_name'],
    ['text2video', { model_name: 'gamma-v2-6', duration: 5 }, 'duration', 'string'],
    ['text2video', { model_name: 'gamma-v2-6', duration: 'five' }, 'duration', 'seconds'],
    ['text2video', { model_name: 'gamma-v2-6', sound: 'loud' }, 'sound', 'sound'],
    ['text2video', { model_name: 'gamma-v2-6', mode: 'max' }, 'mode', 'mode'],
    ['text2video', { model_name: 'gamma-v2-6', prompt: 'x'.repeat(2501) }, 'prompt', '2500'],
    [
      'omni-video',
      { model_name: 'gamma-v3-omni', video_list: [{ video_url: 'ftp://x' }] },
      'video_list[0].video_url',
      'http',
    ],
    [
      'omni-video',
      { model_name: 'gamma-v3-omni', image_list: [{ image_url: FIRST, type: 'middle' }] },
      'image_list[0].type',
      'type',
    ],
    ['image2video', { model_name: 'gamma-v2-6', image: 'not an image!' }, 'image', 'URL'],
    ['text2video', { model_name: 'gamma-v2-6', prompt: 'a\u0000b' }, 'prompt', 'prompt'],
  ] as const)('refuses on %s %j, naming %s', (endpoint, body, param, words) => {
    const refusal = refusalOf(() => toGammaVideoDraft(endpoint, body));
    expect(refusal).toMatchObject({ code: 'invalid_request', param });
    expect(refusal.message).toContain(words);
  });
});
