import type { VideoImage, VideoRequest } from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  refusedVideoPlan,
  videoCallOf,
  videoRequestOf,
} from '@gateway/providers-core/testing';
import { gifBytes, dataUrlOf, pngDataUrl } from '../testing/alpha-test-images';
import { ALPHA_VIDEO_MODELS } from './alpha-models';
import { alphaVideoRules, planAlphaVideo } from './alpha-video.rules';

const FRAME = pngDataUrl(256, 144);
const URL_A = 'https://images.example.test/a.png';
const URL_B = 'https://images.example.test/b.png';

const request = (fields: Partial<VideoRequest> = {}): VideoRequest =>
  videoRequestOf({ model: 'alphaq2-pro', style: 'official', prompt: 'a fox runs through snow', ...fields });

const image = (role: VideoImage['role'], url: string, source: string): VideoImage => ({ role, url, source });

const planned = (fields: Partial<VideoRequest>) => acceptedVideoPlan(planAlphaVideo(request(fields)));
const refusal = (fields: Partial<VideoRequest>) => refusedVideoPlan(planAlphaVideo(request(fields)));

/** Wrong types reach the rules through `as never`: a gateway route passes JSON as it parsed it. */
const hostile = (value: unknown) => value as never;

describe('alpha video rules', () => {
  describe('models', () => {
    it('serves the seven model names of the family and nothing else', () => {
      expect(ALPHA_VIDEO_MODELS).toEqual([
        'alphaq3-pro',
        'alphaq2-pro',
        'alphaq2-turbo',
        'alphaq2-pro-fast',
        'alphaq1',
        'alphaq1-classic',
        'alpha2.0',
      ]);
      for (const model of ALPHA_VIDEO_MODELS) expect(alphaVideoRules.servesVideoModel(model)).toBe(true);
      for (const model of ['alphaq2', 'ALPHAQ2-PRO', 'alpha-q2-pro', 'alphaq3', '', 'toString']) {
        expect(alphaVideoRules.servesVideoModel(model)).toBe(false);
      }
    });

    it('refuses a model outside the family, listing the family', () => {
      expect(refusal({ model: 'alphaq4' })).toMatchObject({
        param: 'model',
        message: expect.stringContaining('alphaq3-pro, alphaq2-pro'),
      });
    });
  });

  describe('modes', () => {
    it('plans a text-to-video call with the model defaults', () => {
      expect(planAlphaVideo(request())).toEqual({
        ok: true,
        call: videoCallOf({
          family: 'alpha',
          prompt: 'a fox runs through snow',
          seconds: 5,
          resolution: '720p',
          size: null,
        }),
        warnings: [],
      });
    });

    it('makes a first frame image-to-video and a first and last frame start-end-to-video', () => {
      const first = image('first_frame', FRAME, 'image');
      const last = image('last_frame', URL_B, 'metadata.last_frame_url');
      expect(planned({ images: [first] }).call).toMatchObject({
        mode: 'first_frame',
        images: [{ role: 'first_frame', url: FRAME }],
      });
      expect(planned({ images: [last, first] }).call).toMatchObject({
        mode: 'first_last',
        images: [
          { role: 'first_frame', url: FRAME },
          { role: 'last_frame', url: URL_B },
        ],
      });
    });

    it('makes reference images and subjects reference-to-video, without a prompt if need be', () => {
      const references = [image('reference', URL_A, 'images'), image('reference', FRAME, 'images')];
      expect(planned({ prompt: undefined, images: references }).call).toMatchObject({
        mode: 'reference',
        prompt: '',
        images: [
          { role: 'reference', url: URL_A },
          { role: 'reference', url: FRAME },
        ],
      });
      const subjects = [
        { id: 'cat', images: [URL_A, FRAME], voiceId: 'voice-7' },
        { id: 'dog', images: [URL_B] },
      ];
      expect(planned({ prompt: '@cat chases @dog', subjects }).call).toMatchObject({
        mode: 'reference',
        images: [],
        subjects: [
          { id: 'cat', images: [URL_A, FRAME], voiceId: 'voice-7' },
          { id: 'dog', images: [URL_B], voiceId: null },
        ],
      });
    });

    it('requires a prompt for text-to-video', () => {
      expect(refusal({ prompt: '  ' })).toMatchObject({
        param: 'prompt',
        message: expect.stringContaining('required'),
      });
      expect(refusal({ prompt: undefined })).toMatchObject({ param: 'prompt' });
    });

    it.each([
      [
        'a last frame alone',
        [image('last_frame', URL_B, 'metadata.last_frame_url')],
        'metadata.last_frame_url',
        'needs a first frame',
      ],
      [
        'two first frames',
        [image('first_frame', URL_A, 'images'), image('first_frame', URL_B, 'images')],
        'images[1]',
        'only one first frame',
      ],
      [
        'frames beside reference images',
        [image('first_frame', URL_A, 'image'), image('reference', URL_B, 'images')],
        'image',
        'cannot be combined',
      ],
      [
        'eight reference images',
        Array.from({ length: 8 }, () => image('reference', URL_A, 'images')),
        'images[0]',
        'at most 7 reference images in all, not 8',
      ],
    ])('refuses %s', (_, images, param, rule) => {
      expect(refusal({ images })).toMatchObject({ param, message: expect.stringContaining(rule) });
    });

    it('takes up to 3 reference images in OpenAI style, 7 on the family route', () => {
      const references = (count: number) =>
        Array.from({ length: count }, () => image('reference', URL_A, 'images'));
      expect(planned({ style: 'openai', images: references(3) }).call.images).toHaveLength(3);
      expect(refusal({ style: 'openai', images: references(4) })).toEqual({
        ok: false,
        param: 'images[0]',
        message: 'at most 3 reference images in OpenAI style, not 4',
      });
      expect(planned({ style: 'official', images: references(7) }).call.images).toHaveLength(7);
      expect(planned({ style: 'unified', images: references(7) }).call.images).toHaveLength(7);
    });

    it('refuses reference images beside subjects, a remix and reference clips', () => {
      expect(
        refusal({ images: [image('reference', URL_A, 'images')], subjects: [{ id: 'a', images: [URL_B] }] }),
      ).toMatchObject({ param: 'images[0]', message: 'send reference images or subjects, not both' });
      expect(refusal({ remixOf: 'task-1' })).toMatchObject({
        param: 'model',
        message: expect.stringContaining('no remix'),
      });
      expect(refusal({ clips: [{ type: 'audio', url: URL_A }] })).toMatchObject({ param: 'clips' });
    });

    it('checks each image where the client put it', () => {
      const bad = dataUrlOf('image/gif', gifBytes(300, 300));
      expect(refusal({ images: [image('first_frame', bad, 'image')] })).toMatchObject({
        param: 'image',
        message: 'image must be png, jpeg, jpg, webp, not gif',
      });
      expect(
        refusal({ images: [image('reference', URL_A, 'images'), image('reference', bad, 'images')] }),
      ).toMatchObject({
        param: 'images[1]',
      });
      expect(refusal({ images: [image('first_frame', 'iVBORw0KGgo=', 'input_reference')] })).toMatchObject({
        param: 'input_reference',
        message: expect.stringContaining('data:image/<fmt>;base64,'),
      });
    });
  });

  describe('subjects', () => {
    it('refuses a subject with 4 images, naming the rule', () => {
      expect(refusal({ subjects: [{ id: 'cat', images: [URL_A, URL_A, URL_A, URL_A] }] })).toEqual({
        ok: false,
        param: 'subjects[0].images',
        message: 'subjects[0].images must hold 1 to 3 images',
      });
    });

    it('accepts 3 images per subject and at most 7 in all', () => {
      const three = [URL_A, URL_B, FRAME];
      expect(
        planned({
          subjects: [
            { id: 'a', images: three },
            { id: 'b', images: three },
            { id: 'c', images: [URL_A] },
          ],
        }).call.mode,
      ).toBe('reference');
      expect(
        refusal({
          subjects: [
            { id: 'a', images: three },
            { id: 'b', images: three },
            { id: 'c', images: [URL_A, URL_B] },
          ],
        }),
      ).toMatchObject({ param: 'subjects', message: 'at most 7 reference images in all, not 8' });
    });

    it.each([
      ['no images', { id: 'a', images: [] }, 'subjects[0].images'],
      ['images that are not a list', { id: 'a', images: hostile(URL_A) }, 'subjects[0].images'],
      ['an empty id', { id: ' ', images: [URL_A] }, 'subjects[0].id'],
      ['a numeric id', { id: hostile(7), images: [URL_A] }, 'subjects[0].id'],
      ['an id of 65 characters', { id: 'x'.repeat(65), images: [URL_A] }, 'subjects[0].id'],
      [
        'a voice that is not a string',
        { id: 'a', images: [URL_A], voiceId: hostile(['v']) },
        'subjects[0].voice_id',
      ],
    ])('refuses a subject with %s', (_, subject, param) => {
      expect(refusal({ subjects: [subject] })).toMatchObject({ param });
    });

    it('refuses a repeated id and names the bad image of a later subject', () => {
      expect(
        refusal({
          subjects: [
            { id: 'a', images: [URL_A] },
            { id: 'a', images: [URL_B] },
          ],
        }),
      ).toMatchObject({
        param: 'subjects[1].id',
      });
      expect(
        refusal({
          subjects: [
            { id: 'a', images: [URL_A] },
            { id: 'b', images: [URL_A, URL_B, pngDataUrl(127, 127)] },
          ],
        }),
      ).toMatchObject({
        param: 'subjects[1].images[2]',
        message: expect.stringContaining('at least 128x128'),
      });
    });
  });

  describe('duration', () => {
    it.each([
      ['alphaq2-pro', undefined, 5],
      ['alphaq2-turbo', 1, 1],
      ['alphaq2-pro-fast', 10, 10],
      ['alphaq3-pro', 16, 16],
      ['alphaq3-pro', undefined, 5],
      ['alphaq1', 5, 5],
      ['alphaq1-classic', undefined, 5],
      ['alpha2.0', 5, 5],
    ])('%s with %s seconds plans %s', (model, seconds, expected) => {
      expect(planned({ model, seconds }).call.seconds).toBe(expected);
    });

    it.each([
      ['alphaq2-pro', 0, 'a whole number from 1 to 10'],
      ['alphaq2-pro', 11, 'a whole number from 1 to 10'],
      ['alphaq2-pro', 5.5, 'a whole number from 1 to 10'],
      ['alphaq2-pro', -5, 'a whole number from 1 to 10'],
      ['alphaq2-pro', 1e308, 'a whole number from 1 to 10'],
      ['alphaq2-pro', Number.NaN, 'a whole number from 1 to 10'],
      ['alphaq2-pro', Number.POSITIVE_INFINITY, 'a whole number from 1 to 10'],
      ['alphaq2-pro', hostile('5'), 'a whole number from 1 to 10'],
      ['alphaq3-pro', 17, 'a whole number from 1 to 16'],
      ['alphaq1', 10, '5 seconds for alphaq1'],
      ['alpha2.0', 4, '5 seconds for alpha2.0'],
    ])('%s refuses %s seconds', (model, seconds, rule) => {
      expect(refusal({ model, seconds })).toMatchObject({
        param: 'duration',
        message: expect.stringContaining(rule),
      });
    });
  });

  describe('resolution and aspect ratio', () => {
    it.each([
      ['alphaq2-pro', undefined, '720p'],
      ['alphaq2-pro', '540p', '540p'],
      ['alphaq3-pro', '1080P', '1080p'],
      ['alphaq1', undefined, '1080p'],
      ['alpha2.0', '540p', '540p'],
    ])('%s at %s plans %s', (model, resolution, expected) => {
      expect(planned({ model, resolution }).call.resolution).toBe(expected);
    });

    it.each([
      ['alphaq2-pro', '4k', 'one of 540p, 720p, 1080p for alphaq2-pro'],
      ['alphaq2-pro', '360p', 'one of 540p, 720p, 1080p'],
      ['alphaq1', '720p', 'one of 1080p for alphaq1'],
      ['alphaq2-pro', hostile(720), 'one of 540p, 720p, 1080p'],
    ])('%s refuses %s', (model, resolution, rule) => {
      expect(refusal({ model, resolution })).toMatchObject({
        param: 'resolution',
        message: expect.stringContaining(rule),
      });
    });

    it('reads a pixel size as the resolution of its shorter side and the ratio of its sides', () => {
      expect(planned({ resolution: '1280x720', size: '1280x720' }).call).toMatchObject({
        resolution: '720p',
        aspectRatio: '16:9',
        size: null,
      });
      expect(planned({ resolution: '1080x1920', size: '1080x1920' }).call).toMatchObject({
        resolution: '1080p',
        aspectRatio: '9:16',
      });
      expect(planned({ resolution: '960x720', size: '960x720' }).call.aspectRatio).toBe('4:3');
    });

    it('refuses a size of no tier, of a ratio the model lacks, or against the aspect_ratio', () => {
      expect(refusal({ resolution: '1024x1024', size: '1024x1024' })).toMatchObject({
        param: 'size',
        message: expect.stringContaining('shorter side: 540, 720 or 1080'),
      });
      expect(refusal({ model: 'alphaq1', resolution: '1440x1080', size: '1440x1080' })).toMatchObject({
        param: 'size',
        message: 'size must have an aspect ratio of 16:9, 9:16, 1:1 for alphaq1',
      });
      expect(refusal({ resolution: '1280x720', size: '1280x720', aspectRatio: '9:16' })).toMatchObject({
        param: 'size',
        message: 'size has the aspect ratio 16:9, not the aspect_ratio 9:16',
      });
    });

    it('takes the resolution a combined billing name fixed, and refuses another', () => {
      expect(planned({ dimensions: { resolution: '1080p' } }).call.resolution).toBe('1080p');
      expect(refusal({ resolution: '720p', dimensions: { resolution: '1080p' } })).toMatchObject({
        param: 'resolution',
        message: 'resolution must be 1080p: the model name fixes it',
      });
    });

    it.each([
      ['alphaq2-pro', '3:4'],
      ['alphaq3-pro', '4:3'],
      ['alphaq1', '16:9'],
      ['alpha2.0', '1:1'],
    ])('%s takes the aspect ratio %s', (model, aspectRatio) => {
      expect(planned({ model, aspectRatio }).call.aspectRatio).toBe(aspectRatio);
    });

    it.each([
      ['alphaq1', '3:4', '16:9, 9:16, 1:1 for alphaq1'],
      ['alpha2.0', '4:3', '16:9, 9:16, 1:1 for alpha2.0'],
      ['alphaq2-pro', '21:9', '16:9, 9:16, 1:1, 3:4, 4:3 for alphaq2-pro'],
      ['alphaq2-pro', hostile(1.78), '16:9, 9:16, 1:1, 3:4, 4:3'],
    ])('%s refuses the aspect ratio %s', (model, aspectRatio, allowed) => {
      expect(refusal({ model, aspectRatio })).toMatchObject({
        param: 'aspect_ratio',
        message: expect.stringContaining(allowed),
      });
    });

    it('drops the aspect ratio of an image-to-video request with a warning', () => {
      const { call, warnings } = planned({
        aspectRatio: '9:16',
        images: [image('first_frame', URL_A, 'image')],
      });
      expect(call.aspectRatio).toBeNull();
      expect(warnings).toEqual(['aspect_ratio is ignored: alphaq2-pro takes the frame of the input image']);
    });
  });

  describe('prompt', () => {
    it('refuses a prompt over 5000 characters or of another type', () => {
      expect(planned({ prompt: 'x'.repeat(5000) }).call.prompt).toHaveLength(5000);
      expect(refusal({ prompt: 'x'.repeat(5001) })).toMatchObject({
        param: 'prompt',
        message: 'prompt must be at most 5000 characters',
      });
      expect(refusal({ prompt: hostile({ text: 'a fox' }) })).toMatchObject({ param: 'prompt' });
    });
  });

  describe('pass-through fields', () => {
    it('keeps every field of the reference-to-video request as written', () => {
      const extras = {
        audio: true,
        audio_type: 'speech_only',
        is_rec: false,
        seed: 2_147_483_647,
        off_peak: true,
        watermark: true,
        wm_position: 4,
        wm_url: 'https://images.example.test/wm.png',
        payload: 'p'.repeat(1_048_576),
        meta_data: '{"order":7}',
      };
      const { call, warnings } = planned({ model: 'alphaq3-pro', extras });
      expect(call.extras).toEqual(extras);
      expect(warnings).toEqual([]);
      expect(planned({ extras: { bgm: true, voice_id: 'v-1', seed: 0 } }).call.extras).toEqual({
        bgm: true,
        voice_id: 'v-1',
        seed: 0,
      });
    });

    it.each([
      ['audio', 'yes', 'audio must be true or false'],
      ['audio_type', 'music', 'audio_type must be one of all, speech_only, sound_effect_only'],
      ['voice_id', 7, 'voice_id must be a string'],
      ['is_rec', 1, 'is_rec must be true or false'],
      ['bgm', 'false', 'bgm must be true or false'],
      ['seed', -1, 'seed must be a whole number from 0 to 2147483647'],
      ['seed', 2_147_483_648, 'seed must be a whole number from 0 to 2147483647'],
      ['seed', 1e308, 'seed must be a whole number from 0 to 2147483647'],
      ['seed', 1.5, 'seed must be a whole number from 0 to 2147483647'],
      ['seed', '12', 'seed must be a whole number from 0 to 2147483647'],
      ['off_peak', 'true', 'off_peak must be true or false'],
      ['watermark', {}, 'watermark must be true or false'],
      ['wm_position', 0, 'wm_position must be a whole number from 1 to 4'],
      ['wm_position', 5, 'wm_position must be a whole number from 1 to 4'],
      ['wm_url', 'ftp://images.example.test/wm.png', 'wm_url must be an http(s) URL'],
      ['payload', 'p'.repeat(1_048_577), 'payload must be at most 1048576 characters'],
      ['payload', ['p'], 'payload must be a string'],
      ['meta_data', '{"order":', 'meta_data must be a JSON string'],
      ['meta_data', { order: 7 }, 'meta_data must be a JSON string'],
      ['style', 'cartoon', 'style must be one of general, anime'],
      ['movement_amplitude', 'huge', 'movement_amplitude must be one of auto, small, medium, large'],
    ])('refuses %s = %p', (field, value, message) => {
      expect(refusal({ model: 'alphaq1', extras: { [field]: hostile(value) } })).toEqual({
        ok: false,
        param: field,
        message,
      });
    });

    it('refuses audio: true off q3 and drops a false one there', () => {
      expect(refusal({ extras: { audio: true } })).toMatchObject({
        param: 'audio',
        message: 'audio must be false for alphaq2-pro: only q3 models generate audio',
      });
      expect(planned({ model: 'alphaq1', extras: { audio: false } })).toMatchObject({
        call: { extras: {} },
        warnings: [],
      });
    });

    it('keeps style and movement_amplitude where they work: q1 text-to-video', () => {
      const extras = { style: 'anime', movement_amplitude: 'large' };
      expect(planned({ model: 'alphaq1', extras }).call.extras).toEqual(extras);
    });

    it('drops what has no effect, with a warning each', () => {
      expect(planned({ extras: { style: 'anime', movement_amplitude: 'small' } })).toMatchObject({
        call: { extras: {} },
        warnings: [
          'style is ignored: it has no effect on alphaq2-pro',
          'movement_amplitude is ignored: it has no effect on alphaq2-pro',
        ],
      });
      expect(
        planned({
          model: 'alphaq1',
          images: [image('first_frame', URL_A, 'image')],
          extras: { style: 'general' },
        }).warnings,
      ).toEqual(['style is ignored: it applies to text-to-video only']);
      expect(
        planned({
          model: 'alphaq3-pro',
          extras: { bgm: true, voice_id: 'v', audio: false, audio_type: 'all' },
        }),
      ).toMatchObject({
        call: { extras: { audio: false } },
        warnings: [
          'bgm is ignored: alphaq3-pro has no background music option',
          'voice_id is ignored: it has no effect on alphaq3-pro',
          'audio_type is ignored: it applies to videos with audio only',
        ],
      });
    });

    it('withholds callback_url and drops unknown fields, with a warning', () => {
      expect(
        planned({ extras: { callback_url: 'https://hooks.example.test/', mood: 'calm', seed: null } }),
      ).toMatchObject({
        call: { extras: {} },
        warnings: [
          'callback_url is ignored: the gateway polls the task',
          'mood is ignored: not a field of this family',
        ],
      });
    });

    it('drops fields named like object members instead of calling them', () => {
      const extras = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "seed": 3}');
      expect(planned({ extras })).toMatchObject({
        call: { extras: { seed: 3 } },
        warnings: [
          '__proto__ is ignored: not a field of this family',
          'constructor is ignored: not a field of this family',
        ],
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('sets off_peak from a combined billing name, and refuses a contradiction', () => {
      expect(planned({ dimensions: { offpeak: 'true' } }).call.extras).toEqual({ off_peak: true });
      expect(refusal({ dimensions: { offpeak: 'true' }, extras: { off_peak: false } })).toMatchObject({
        param: 'off_peak',
      });
    });
  });
});
