import type { SerialisableObject, VideoPlan, VideoRequest } from '@gateway/providers-core';
import { acceptedVideoPlan, videoRequestOf } from '@gateway/providers-core/testing';
import { planGammaVideo, servesGammaVideoModel } from './gamma-video.rules';

const IMAGE = 'https://img.example/first.png';
const VIDEO = 'https://media.example/motion.mp4';

const plan = (fields: Partial<VideoRequest> = {}): VideoPlan =>
  planGammaVideo(videoRequestOf({ model: 'gamma-3.0-omni', prompt: 'a fox runs', ...fields }));
const accepted = (fields: Partial<VideoRequest> = {}) => acceptedVideoPlan(plan(fields));
const submissionOf = (fields: Partial<VideoRequest> = {}) =>
  accepted(fields).call.extras.submission as SerialisableObject;
const outputConfigOf = (fields: Partial<VideoRequest> = {}) => submissionOf(fields).OutputConfig;
const withMetadata = (metadata: SerialisableObject, fields: Partial<VideoRequest> = {}) => ({
  metadata,
  ...fields,
});
const firstFrame = { role: 'first_frame' as const, url: IMAGE, source: 'image' };

describe('servesGammaVideoModel', () => {
  it.each(['gamma-3.0-omni', 'gamma-2.6', 'gamma-2.5', 'gamma-avatar'])('serves %s', (model) => {
    expect(servesGammaVideoModel(model)).toBe(true);
  });

  it.each([
    'gamma-3.0',
    'GAMMA-2.6',
    'gamma-2.6-motion-pro-1080p',
    '__proto__',
    'constructor',
    'toString',
    '',
  ])('does not serve %j', (model) => {
    expect(servesGammaVideoModel(model)).toBe(false);
    expect(plan({ model })).toMatchObject({ ok: false, param: 'model' });
  });
});

describe('planGammaVideo', () => {
  it('plans the example body of upstreams.md §5.4 from the OpenAI-style fields', () => {
    const result = accepted({
      seconds: 10,
      resolution: '1080P',
      aspectRatio: '16:9',
      images: [firstFrame],
      metadata: { output_config: { resolution: '1080P', audio_generation: 'Enabled' } },
    });
    expect(result.call).toEqual({
      kind: 'video',
      family: 'gamma',
      mode: 'first_frame',
      prompt: 'a fox runs',
      seconds: 10,
      resolution: '1080p',
      size: '1080P',
      aspectRatio: '16:9',
      images: [{ role: 'first_frame', url: IMAGE }],
      clips: [],
      subjects: [],
      metadata: { output_config: { resolution: '1080P', audio_generation: 'Enabled' } },
      extras: {
        submission: {
          Prompt: 'a fox runs',
          FileInfos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }],
          OutputConfig: {
            Duration: 10,
            Resolution: '1080P',
            AspectRatio: '16:9',
            AudioGeneration: 'Enabled',
          },
        },
      },
      remixOf: null,
    });
    expect(result.warnings).toEqual([]);
  });

  it('plans a text task at the defaults: 5 seconds at 720P, the ratio left to the upstream', () => {
    const result = accepted();
    expect(result.call).toMatchObject({
      mode: 'text',
      seconds: 5,
      resolution: '720p',
      size: '720P',
      aspectRatio: null,
    });
    expect(result.call.extras.submission).toEqual({
      Prompt: 'a fox runs',
      OutputConfig: { Duration: 5, Resolution: '720P' },
    });
  });

  describe('seconds', () => {
    it.each([
      ['gamma-3.0-omni', [5, 10, 15]],
      ['gamma-2.6', [5, 10]],
      ['gamma-2.5', [5, 10]],
    ])('%s takes %j on the OpenAI-style and unified routes', (model, allowed) => {
      for (const seconds of allowed)
        expect(outputConfigOf({ model, seconds })).toMatchObject({ Duration: seconds });
      for (const style of ['openai', 'unified'] as const) {
        expect(plan({ model, style, seconds: 7 })).toEqual({
          ok: false,
          param: 'seconds',
          message: `seconds must be one of ${allowed.join(', ')} for ${model}`,
        });
      }
    });

    it('takes any whole second of the model’s range on the official route, and nothing outside it', () => {
      expect(outputConfigOf({ style: 'official', seconds: 7 })).toMatchObject({ Duration: 7 });
      expect(plan({ style: 'official', seconds: 3 })).toMatchObject({
        ok: false,
        message: expect.stringContaining('5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15'),
      });
      expect(plan({ model: 'gamma-2.6', style: 'official', seconds: 11 })).toMatchObject({
        ok: false,
        param: 'seconds',
      });
    });

    it.each([Number.NaN, -5, 0, 10.5, 1e9, Number.POSITIVE_INFINITY])('refuses %s', (seconds) => {
      expect(plan({ seconds })).toMatchObject({ ok: false, param: 'seconds' });
    });

    it('falls back to output_config.duration, and warns when seconds overrides it', () => {
      expect(accepted(withMetadata({ output_config: { duration: 10 } })).call.seconds).toBe(10);
      const overridden = accepted(withMetadata({ output_config: { duration: 10 } }, { seconds: 15 }));
      expect(overridden.call.seconds).toBe(15);
      expect(overridden.warnings).toEqual([
        'metadata.output_config.duration is ignored: seconds gives the duration',
      ]);
      expect(plan(withMetadata({ output_config: { duration: '10' } }))).toMatchObject({
        ok: false,
        param: 'metadata.output_config.duration',
      });
    });
  });

  describe('resolution and ratio', () => {
    it('reads output_config.resolution in any case, and a pixel size as resolution and ratio', () => {
      expect(
        outputConfigOf(withMetadata({ output_config: { resolution: '1080p' } }, { resolution: '1080p' })),
      ).toEqual({
        Duration: 5,
        Resolution: '1080P',
      });
      expect(outputConfigOf({ resolution: '1280x720', size: '1280x720' })).toEqual({
        Duration: 5,
        Resolution: '720P',
        AspectRatio: '16:9',
      });
      expect(accepted({ resolution: '1080x1920', size: '1080x1920' }).call).toMatchObject({
        resolution: '1080p',
        aspectRatio: '9:16',
      });
    });

    it('refuses other resolutions, naming the field they came from and the allowed values', () => {
      expect(plan(withMetadata({ output_config: { resolution: '4K' } }, { resolution: '4K' }))).toEqual({
        ok: false,
        param: 'metadata.output_config.resolution',
        message: 'metadata.output_config.resolution must be one of 720P, 1080P',
      });
      expect(plan({ resolution: '1024x1792', size: '1024x1792' })).toEqual({
        ok: false,
        param: 'size',
        message:
          'size must be one of 720P, 1080P or 1280x720, 720x1280, 720x720, 1920x1080, 1080x1920, 1080x1080',
      });
    });

    it('takes output_config.aspect_ratio over aspect_ratio, with a warning, and refuses others', () => {
      const result = accepted(
        withMetadata({ output_config: { aspect_ratio: '9:16' } }, { aspectRatio: '1:1' }),
      );
      expect(result.call.aspectRatio).toBe('9:16');
      expect(result.warnings).toEqual([
        'aspect_ratio is ignored: metadata.output_config.aspect_ratio gives the ratio',
      ]);
      expect(plan({ aspectRatio: '4:3' })).toEqual({
        ok: false,
        param: 'aspect_ratio',
        message: 'aspect_ratio must be one of 16:9, 9:16, 1:1',
      });
      expect(plan(withMetadata({ output_config: { aspect_ratio: 16 } }))).toMatchObject({
        ok: false,
        param: 'metadata.output_config.aspect_ratio',
      });
    });
  });

  describe('output_config key by key', () => {
    it('renames every snake_case key to PascalCase and checks the closed sets', () => {
      const output_config = {
        storage_mode: 'permanent',
        person_generation: 'Disallowed',
        input_compliance_check: 'Enabled',
        output_compliance_check: 'disabled',
        media_name: 'fox',
        class_id: 3,
        expire_time: '2026-12-31T23:59:59Z',
        frame_interpolation: true,
      };
      expect(outputConfigOf(withMetadata({ output_config }))).toEqual({
        StorageMode: 'Permanent',
        PersonGeneration: 'Disallowed',
        InputComplianceCheck: 'Enabled',
        OutputComplianceCheck: 'Disabled',
        MediaName: 'fox',
        ClassId: 3,
        ExpireTime: '2026-12-31T23:59:59Z',
        FrameInterpolation: true,
        Duration: 5,
        Resolution: '720P',
      });
    });

    it.each([
      [{ storage_mode: 'Forever' }, 'metadata.output_config.storage_mode', 'Temporary, Permanent'],
      [{ person_generation: true }, 'metadata.output_config.person_generation', 'AllowAdult, Disallowed'],
      [
        { input_compliance_check: 'on' },
        'metadata.output_config.input_compliance_check',
        'Enabled, Disabled',
      ],
      [{ class_id: -1 }, 'metadata.output_config.class_id', 'non-negative integer'],
      [{ class_id: 1.5 }, 'metadata.output_config.class_id', 'non-negative integer'],
      [{ expire_time: 'tomorrow' }, 'metadata.output_config.expire_time', 'ISO 8601'],
      [{ expire_time: '2026-13-45T99:00:00Z' }, 'metadata.output_config.expire_time', 'ISO 8601'],
      [{ media_name: ['a'] }, 'metadata.output_config.media_name', 'string'],
      [{ AudioGeneration: 'Enabled' }, 'metadata.output_config', 'snake_case'],
      [JSON.parse('{"__proto__":{"polluted":true}}'), 'metadata.output_config', 'snake_case'],
      [{ 'bad key': 1 }, 'metadata.output_config', 'snake_case'],
    ])('refuses %j', (output_config, param, allowed) => {
      expect(plan(withMetadata({ output_config }))).toEqual({
        ok: false,
        param,
        message: expect.stringContaining(allowed),
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it.each([['a string'], [['an', 'array']], [7]])('refuses an output_config of %j', (output_config) => {
      expect(plan(withMetadata({ output_config }))).toMatchObject({
        ok: false,
        param: 'metadata.output_config',
      });
    });
  });

  describe('audio and off-peak', () => {
    it('sends audio_generation as the wire spells it, and refuses other values', () => {
      expect(outputConfigOf(withMetadata({ output_config: { audio_generation: 'enabled' } }))).toMatchObject({
        AudioGeneration: 'Enabled',
      });
      expect(plan(withMetadata({ output_config: { audio_generation: 'yes' } }))).toEqual({
        ok: false,
        param: 'metadata.output_config.audio_generation',
        message: 'metadata.output_config.audio_generation must be one of Enabled, Disabled',
      });
    });

    it('refuses sound on gamma-2.5, which has none, and allows turning it off', () => {
      expect(
        plan(withMetadata({ output_config: { audio_generation: 'Enabled' } }, { model: 'gamma-2.5' })),
      ).toEqual({
        ok: false,
        param: 'metadata.output_config.audio_generation',
        message: 'gamma-2.5 generates no sound: audio_generation Enabled needs gamma-2.6 or gamma-3.0-omni',
      });
      expect(
        outputConfigOf(
          withMetadata({ output_config: { audio_generation: 'Disabled' } }, { model: 'gamma-2.5' }),
        ),
      ).toMatchObject({ AudioGeneration: 'Disabled' });
    });

    it('sends metadata.offpeak as OffPeak and refuses a value that is not a boolean', () => {
      expect(outputConfigOf(withMetadata({ offpeak: true }))).toMatchObject({ OffPeak: true });
      expect(outputConfigOf(withMetadata({ offpeak: false }))).toMatchObject({ OffPeak: false });
      expect(plan(withMetadata({ offpeak: 'yes' }))).toEqual({
        ok: false,
        param: 'metadata.offpeak',
        message: 'metadata.offpeak must be true or false',
      });
    });
  });

  describe('files', () => {
    it('puts images in FileInfos and metadata.video_url as a video reference', () => {
      const result = accepted({
        images: [
          { role: 'reference', url: IMAGE, source: 'images' },
          { role: 'reference', url: 'https://img.example/b.png', source: 'images' },
        ],
        metadata: { video_url: VIDEO },
      });
      expect(result.call.mode).toBe('reference');
      expect(result.call.clips).toEqual([{ type: 'video', url: VIDEO, role: null }]);
      expect((result.call.extras.submission as SerialisableObject).FileInfos).toEqual([
        { Type: 'Url', Category: 'Image', Url: IMAGE },
        { Type: 'Url', Category: 'Image', Url: 'https://img.example/b.png' },
        { Type: 'Url', Category: 'Video', Url: VIDEO },
      ]);
    });

    it('sends metadata.last_frame_url as LastFrameUrl behind a first frame', () => {
      const result = accepted({
        images: [
          firstFrame,
          { role: 'last_frame', url: 'https://img.example/last.png', source: 'metadata.last_frame_url' },
        ],
      });
      expect(result.call.mode).toBe('first_last');
      expect(result.call.extras.submission).toMatchObject({
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }],
        LastFrameUrl: 'https://img.example/last.png',
      });
      expect(
        plan({
          images: [
            { role: 'last_frame', url: 'https://img.example/last.png', source: 'metadata.last_frame_url' },
          ],
        }),
      ).toEqual({
        ok: false,
        param: 'metadata.last_frame_url',
        message: 'metadata.last_frame_url needs a first frame in image or images',
      });
    });

    it('refuses more than 3 files, uploaded or Base64 images, and URLs of other schemes', () => {
      const reference = (url: string) => ({ role: 'reference' as const, url, source: 'images' });
      expect(
        plan({
          images: [1, 2, 3].map((n) => reference(`https://img.example/${n}.png`)),
          metadata: { video_url: VIDEO },
        }),
      ).toEqual({
        ok: false,
        param: 'images',
        message: "at most 3 images and videos together (the wire's FileInfos)",
      });
      expect(
        plan({
          images: [
            { role: 'first_frame', url: 'data:image/png;base64,iVBORw0KGgo=', source: 'input_reference' },
          ],
        }),
      ).toMatchObject({
        ok: false,
        param: 'input_reference',
        message: expect.stringContaining('http(s) URL'),
      });
      expect(plan({ images: [{ ...firstFrame, url: 'javascript:alert(1)' }] })).toMatchObject({
        ok: false,
        param: 'image',
      });
      expect(plan(withMetadata({ video_url: 'ftp://media.example/a.mp4' }))).toMatchObject({
        ok: false,
        param: 'metadata.video_url',
      });
    });

    it('copies metadata.file_infos key by key, ignoring the other image fields with a warning', () => {
      const result = accepted({
        images: [firstFrame],
        metadata: {
          file_infos: [
            {
              type: 'Url',
              category: 'Video',
              url: VIDEO,
              reference_type: 'feature',
              keep_original_sound: 'yes',
            },
            { type: 'file', category: 'image', file_id: '5285890781763144364' },
          ],
        },
      });
      expect((result.call.extras.submission as SerialisableObject).FileInfos).toEqual([
        { Type: 'Url', Category: 'Video', Url: VIDEO, ReferenceType: 'feature', KeepOriginalSound: 'yes' },
        { Type: 'File', Category: 'Image', FileId: '5285890781763144364' },
      ]);
      expect(result.warnings).toEqual([
        'image, images and metadata.video_url are ignored: metadata.file_infos gives the files',
      ]);
    });

    it.each([
      [{ file_infos: 'x' }, 'metadata.file_infos'],
      [{ file_infos: [1] }, 'metadata.file_infos[0]'],
      [{ file_infos: [{ type: 'Stream', category: 'Image', url: IMAGE }] }, 'metadata.file_infos[0].type'],
      [{ file_infos: [{ type: 'Url', category: 'Audio', url: IMAGE }] }, 'metadata.file_infos[0].category'],
      [{ file_infos: [{ type: 'Url', category: 'Image' }] }, 'metadata.file_infos[0].url'],
      [{ file_infos: [{ type: 'File', category: 'Image', file_id: ' ' }] }, 'metadata.file_infos[0].file_id'],
      [
        { file_infos: [{ type: 'Url', category: 'Video', url: VIDEO, reference_type: 'style' }] },
        'metadata.file_infos[0].reference_type',
      ],
      [{ file_infos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }] }, 'metadata.file_infos[0]'],
      [
        { file_infos: [1, 2, 3, 4].map(() => ({ type: 'Url', category: 'Image', url: IMAGE })) },
        'metadata.file_infos',
      ],
    ])('refuses file_infos %j', (metadata, param) => {
      expect(plan({ metadata })).toMatchObject({ ok: false, param });
    });

    it('sends a video clip’s role as its ReferenceType when the wire has it', () => {
      const result = accepted({
        clips: [
          { type: 'video', url: VIDEO, role: 'feature' },
          { type: 'video', url: 'https://media.example/b.mp4', role: 'style' },
        ],
        metadata: { video_url: VIDEO },
      });
      expect((result.call.extras.submission as SerialisableObject).FileInfos).toEqual([
        { Type: 'Url', Category: 'Video', Url: VIDEO, ReferenceType: 'feature' },
        { Type: 'Url', Category: 'Video', Url: 'https://media.example/b.mp4' },
      ]);
      expect(result.call.clips).toEqual([
        { type: 'video', url: VIDEO, role: 'feature' },
        { type: 'video', url: 'https://media.example/b.mp4', role: null },
      ]);
    });

    it('warns that audio clips have no place on this wire', () => {
      expect(accepted({ clips: [{ type: 'audio', url: 'https://media.example/a.mp3' }] }).warnings).toEqual([
        'audio clips are ignored: gamma takes no audio input',
      ]);
    });
  });

  describe('prompt', () => {
    it('is required without an image, and optional with one', () => {
      for (const prompt of [undefined, '', '   ']) {
        expect(plan({ prompt })).toEqual({
          ok: false,
          param: 'prompt',
          message: 'prompt is required for gamma-3.0-omni without an image',
        });
      }
      const result = accepted({ prompt: undefined, images: [firstFrame] });
      expect(result.call.prompt).toBe('');
      expect(result.call.extras.submission).not.toHaveProperty('Prompt');
    });

    it('is at most 2000 characters', () => {
      expect(accepted({ prompt: 'a'.repeat(2000) }).call.prompt).toHaveLength(2000);
      expect(plan({ prompt: 'a'.repeat(2001) })).toEqual({
        ok: false,
        param: 'prompt',
        message: 'prompt must be at most 2000 characters',
      });
    });

    it('sends the official wire’s negative_prompt as NegativePrompt', () => {
      expect(submissionOf({ extras: { negative_prompt: 'blur' } })).toMatchObject({ NegativePrompt: 'blur' });
      expect(plan({ extras: { negative_prompt: 5 } })).toMatchObject({ ok: false, param: 'negative_prompt' });
    });
  });

  describe('scenes', () => {
    const motionInputs = { images: [firstFrame], metadata: { video_url: VIDEO } };

    it('sends metadata.scene_type when its inputs are there', () => {
      expect(
        submissionOf({
          ...motionInputs,
          metadata: { ...motionInputs.metadata, scene_type: 'motion_control' },
        }),
      ).toMatchObject({
        SceneType: 'motion_control',
      });
      expect(submissionOf({ images: [firstFrame], metadata: { scene_type: 'avatar_i2v' } })).toMatchObject({
        SceneType: 'avatar_i2v',
      });
      expect(submissionOf({ metadata: { video_url: VIDEO, scene_type: 'lip_sync' } })).toMatchObject({
        SceneType: 'lip_sync',
      });
    });

    it.each([
      ['motion_control', { images: [firstFrame] }, 'a subject image and a motion reference video'],
      ['motion_control', { metadata: { video_url: VIDEO } }, 'a subject image and a motion reference video'],
      ['avatar_i2v', {}, 'a portrait image'],
      ['lip_sync', { images: [firstFrame] }, 'a face video'],
      [
        'template_effect',
        { images: [firstFrame] },
        'an image and metadata.ext_info.AdditionalParameters.template',
      ],
    ])('refuses %s without its inputs', (scene, fields: Partial<VideoRequest>, needs) => {
      const metadata = { ...(fields.metadata ?? {}), scene_type: scene };
      expect(plan({ ...fields, metadata })).toEqual({
        ok: false,
        param: 'metadata.scene_type',
        message: expect.stringContaining(`scene_type ${scene} needs ${needs}`),
      });
    });

    it('refuses a scene the wire does not have', () => {
      expect(plan(withMetadata({ scene_type: 'dance' }))).toEqual({
        ok: false,
        param: 'metadata.scene_type',
        message: 'metadata.scene_type must be one of motion_control, avatar_i2v, lip_sync, template_effect',
      });
      expect(plan(withMetadata({ scene_type: 'motion' }))).toMatchObject({
        ok: false,
        param: 'metadata.scene_type',
      });
    });

    it('serialises an ext_info object to the string the wire takes, and needs a template for template_effect', () => {
      const extInfo = { AdditionalParameters: { template: 'snow_globe' } };
      expect(
        submissionOf({
          images: [firstFrame],
          metadata: { scene_type: 'template_effect', ext_info: extInfo },
        }),
      ).toMatchObject({
        SceneType: 'template_effect',
        ExtInfo: '{"AdditionalParameters":{"template":"snow_globe"}}',
      });
      expect(submissionOf(withMetadata({ ext_info: '{"Trace":"1"}' }))).toMatchObject({
        ExtInfo: '{"Trace":"1"}',
      });
      for (const ext_info of ['not json', '[1]', 42, true]) {
        expect(plan(withMetadata({ ext_info }))).toMatchObject({ ok: false, param: 'metadata.ext_info' });
      }
    });
  });

  describe('combined billing names', () => {
    it('gamma-3.0-omni-1080p-ref-audio: 1080P, the images as references, sound on', () => {
      const result = accepted({
        dimensions: { resolution: '1080p', ref: 'true', audio: 'true' },
        images: [firstFrame],
      });
      expect(result.call).toMatchObject({ mode: 'reference', resolution: '1080p', size: '1080P' });
      expect(result.call.extras.submission).toMatchObject({
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }],
        OutputConfig: { Duration: 5, Resolution: '1080P', AudioGeneration: 'Enabled' },
      });
      expect(plan({ dimensions: { ref: 'true' } })).toMatchObject({ ok: false, param: 'images' });
    });

    it('gamma-2.6-motion-pro-1080p: version 2.6, motion control at 1080P, the level never sent', () => {
      const result = accepted({
        model: 'gamma-2.6',
        dimensions: { scene_type: 'motion', motion_level: 'pro', resolution: '1080p' },
        images: [firstFrame],
        metadata: { video_url: VIDEO, motion_level: 'pro' },
      });
      expect(result.call.extras.submission).toEqual({
        Prompt: 'a fox runs',
        FileInfos: [
          { Type: 'Url', Category: 'Image', Url: IMAGE },
          { Type: 'Url', Category: 'Video', Url: VIDEO },
        ],
        OutputConfig: { Duration: 5, Resolution: '1080P' },
        SceneType: 'motion_control',
      });
    });

    it('gamma-avatar-720p: the avatar scene at 720P', () => {
      expect(
        submissionOf({
          model: 'gamma-avatar',
          dimensions: { resolution: '720p' },
          prompt: undefined,
          images: [firstFrame],
        }),
      ).toEqual({
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }],
        OutputConfig: { Duration: 5, Resolution: '720P' },
        SceneType: 'avatar_i2v',
      });
      expect(plan({ model: 'gamma-avatar' })).toMatchObject({ ok: false, param: 'metadata.scene_type' });
    });

    it('sends offpeak as OffPeak', () => {
      expect(outputConfigOf({ dimensions: { offpeak: 'true' } })).toMatchObject({ OffPeak: true });
    });

    it.each([
      [
        { resolution: '1080p' },
        { resolution: '720P' },
        'size',
        "size 720P differs from the model name's 1080P",
      ],
      [
        { audio: 'true' },
        { metadata: { output_config: { audio_generation: 'Disabled' } } },
        'metadata.output_config.audio_generation',
        'contradicts',
      ],
      [{ audio: 'true' }, { model: 'gamma-2.5' }, 'model', 'gamma-2.5 generates no sound'],
      [{ offpeak: 'true' }, { metadata: { offpeak: false } }, 'metadata.offpeak', 'contradicts'],
      [
        { scene_type: 'motion' },
        { metadata: { scene_type: 'lip_sync' } },
        'metadata.scene_type',
        "differs from the model name's motion_control",
      ],
      [
        { motion_level: 'std' },
        { metadata: { motion_level: 'pro' } },
        'metadata.motion_level',
        "differs from the model name's std",
      ],
    ])(
      'refuses a request contradicting the name’s %j',
      (dimensions, fields: Partial<VideoRequest>, param, message) => {
        expect(plan({ ...fields, dimensions })).toEqual({
          ok: false,
          param,
          message: expect.stringContaining(message),
        });
      },
    );

    it.each([
      [{ resolution: '4k' }, "the model name's resolution must be one of 720p, 1080p"],
      [{ motion_level: 'ultra' }, "the model name's motion_level must be one of std, pro"],
      [{ scene_type: 'dance' }, "the model name's scene_type must be one of"],
      [{ ref: 'maybe' }, "the model name's ref must be true or false"],
    ])('refuses a name whose option %j this family cannot use', (dimensions, message) => {
      expect(plan({ dimensions })).toEqual({
        ok: false,
        param: 'model',
        message: expect.stringContaining(message),
      });
    });

    it('warns about an option of no use to gamma', () => {
      expect(accepted({ dimensions: { watermark: 'true' } }).warnings).toEqual([
        "the model name's watermark option has no effect on gamma",
      ]);
    });
  });

  it('refuses metadata.motion_level outside std and pro', () => {
    expect(plan(withMetadata({ motion_level: 'ultra' }))).toEqual({
      ok: false,
      param: 'metadata.motion_level',
      message: 'metadata.motion_level must be one of std, pro',
    });
  });

  it('refuses a remix and subjects, which the wire has no place for', () => {
    expect(plan({ remixOf: { taskId: 'x' } })).toMatchObject({ ok: false, param: 'model' });
    expect(plan({ subjects: [{ id: 'cat', images: [IMAGE] }] })).toMatchObject({
      ok: false,
      param: 'subjects',
    });
  });
});
