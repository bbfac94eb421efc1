import type { VideoRequest } from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  refusedVideoPlan,
  videoCallOf,
  videoRequestOf,
} from '@gateway/providers-core/testing';
import { omegaVideoRules } from './omega-video.rules';

const FRAME = 'https://example.test/frame.png';
const firstFrame = { role: 'first_frame' as const, url: FRAME, source: 'image' };

const request = (fields: Partial<VideoRequest> = {}): VideoRequest =>
  videoRequestOf({ model: 'omega2.6-t2v:1280*720', prompt: 'a fox runs', ...fields });
const planned = (fields: Partial<VideoRequest> = {}) =>
  acceptedVideoPlan(omegaVideoRules.planVideo(request(fields)));
const refusal = (fields: Partial<VideoRequest>) =>
  refusedVideoPlan(omegaVideoRules.planVideo(request(fields)));

describe('omegaVideoRules', () => {
  it('serves the t2v and i2v bases with a suffix, nothing else', () => {
    for (const model of [
      'omega2.6-t2v:1280*720',
      'omega2.6-t2v:1920*1080',
      'omega2.6-i2v:1280*720',
      'omega2.6-i2v:1920*1080',
    ]) {
      expect(omegaVideoRules.servesVideoModel(model)).toBe(true);
    }
    for (const model of [
      'omega2.6-t2v',
      'omega2.6-r2v:1280*720',
      'omega2.5-t2v:1280*720',
      'constructor:1',
      ':1280*720',
    ]) {
      expect(omegaVideoRules.servesVideoModel(model)).toBe(false);
    }
  });

  it('plans t2v at the size after the colon, written with an asterisk, 5 s by default', () => {
    expect(omegaVideoRules.planVideo(request())).toEqual({
      ok: true,
      call: videoCallOf({
        family: 'omega',
        prompt: 'a fox runs',
        seconds: 5,
        resolution: '720p',
        size: '1280*720',
      }),
      warnings: [],
    });
  });

  it.each([
    ['omega2.6-t2v:1920*1080', '1920*1080', '1080p'],
    ['omega2.6-t2v:1080*1920', '1080*1920', '1080p'],
    ['omega2.6-t2v:832*1088', '832*1088', '720p'],
  ])('plans %s with size %s at tier %s', (model, size, resolution) => {
    expect(planned({ model }).call).toMatchObject({ size, resolution });
  });

  it.each([
    ['omega2.6-i2v:1280*720', '720P', '720p'],
    ['omega2.6-i2v:1920*1080', '1080P', '1080p'],
  ])('plans %s from the first frame at resolution %s', (model, size, resolution) => {
    expect(planned({ model, prompt: undefined, images: [firstFrame], seconds: 15 }).call).toMatchObject({
      mode: 'first_frame',
      prompt: '',
      size,
      resolution,
      seconds: 15,
      images: [{ role: 'first_frame', url: FRAME }],
    });
  });

  it('refuses a suffix of no tier, naming the sizes', () => {
    const refused = refusal({ model: 'omega2.6-t2v:1280x720' });
    expect(refused.param).toBe('model');
    expect(refused.message).toContain('1280*720, 720*1280, 960*960, 1088*832, 832*1088, 1920*1080');
  });

  it('accepts a size or resolution that agrees with the model, in either separator', () => {
    expect(planned({ size: '1280x720', resolution: '1280x720' }).call.size).toBe('1280*720');
    expect(
      planned({ size: '720P', resolution: '720P', metadata: { output_config: { resolution: '720P' } } }).call
        .size,
    ).toBe('1280*720');
    expect(
      planned({ model: 'omega2.6-i2v:1280*720', images: [firstFrame], size: '720x1280' }).call.size,
    ).toBe('720P');
  });

  it.each<[string, Partial<VideoRequest>, string, string]>([
    ['a portrait size on a landscape model', { size: '720*1280' }, 'size', 'size must be 1280*720 or 720P'],
    ['another tier', { size: '1920x1080' }, 'size', 'size must be 1280*720 or 720P'],
    [
      'another tier in output_config',
      { metadata: { output_config: { resolution: '1080P' } } },
      'metadata.output_config.resolution',
      'metadata.output_config.resolution must be 1280*720 or 720P',
    ],
    [
      'a 1080P size on a 720P i2v model',
      { model: 'omega2.6-i2v:1280*720', images: [firstFrame], size: '1920x1080' },
      'size',
      'size must be 720P',
    ],
    [
      'a number in output_config',
      { metadata: { output_config: { resolution: 720 } } },
      'metadata.output_config.resolution',
      'must be',
    ],
  ])('refuses %s', (_, fields, param, message) => {
    const refused = refusal(fields);
    expect(refused.param).toBe(param);
    expect(refused.message).toContain(message);
  });

  it.each([0, 4, 6, 7.5, 20, -5, Number.NaN])('refuses seconds %s, naming 5, 10, 15', (seconds) => {
    expect(refusal({ seconds })).toEqual({
      ok: false,
      param: 'seconds',
      message: 'seconds must be 5, 10, 15 for omega2.6-t2v:1280*720',
    });
  });

  it.each([10, 15])('accepts %s seconds', (seconds) => {
    expect(planned({ seconds }).call.seconds).toBe(seconds);
  });

  it.each<[string, Partial<VideoRequest>, string, RegExp]>([
    [
      'an image on t2v',
      { images: [firstFrame] },
      'image',
      /is text to video: send images to an omega2\.6-i2v:<size> model/,
    ],
    [
      'i2v without an image',
      { model: 'omega2.6-i2v:1280*720' },
      'image',
      /first-frame-to-video: send one first frame in image/,
    ],
    [
      'a last frame on i2v',
      {
        model: 'omega2.6-i2v:1280*720',
        images: [firstFrame, { role: 'last_frame', url: FRAME, source: 'metadata.last_frame_url' }],
      },
      'metadata.last_frame_url',
      /send one first frame in image \(last frames are not supported\)/,
    ],
    [
      'three reference images on i2v',
      {
        model: 'omega2.6-i2v:1280*720',
        images: [1, 2, 3].map(() => ({ role: 'reference' as const, url: FRAME, source: 'images' })),
      },
      'images',
      /send one first frame in image/,
    ],
    [
      'a reference video',
      { clips: [{ type: 'video', url: FRAME }] },
      'metadata.video_url',
      /takes no reference video/,
    ],
    ['subjects', { subjects: [{ id: 's', images: [FRAME] }] }, 'subjects', /takes no subjects/],
    ['a remix', { remixOf: 'task-1' }, 'model', /cannot remix/],
    ['t2v without a prompt', { prompt: ' ' }, 'prompt', /prompt is required/],
    [
      'an image in a form the wire cannot take',
      { model: 'omega2.6-i2v:1280*720', images: [{ ...firstFrame, url: 'file:///etc/passwd' }] },
      'image',
      /must be an http\(s\) URL or a data:image/,
    ],
  ])('refuses %s', (_, fields, param, message) => {
    const refused = refusal(fields);
    expect(refused.param).toBe(param);
    expect(refused.message).toMatch(message);
  });

  it('reads one images[] entry as the first frame on i2v', () => {
    const images = [{ role: 'reference' as const, url: FRAME, source: 'images' }];
    expect(planned({ model: 'omega2.6-i2v:1280*720', images }).call.images).toEqual([
      { role: 'first_frame', url: FRAME },
    ]);
  });

  it('passes the wire options from metadata, and audio from output_config.audio_generation', () => {
    expect(
      planned({
        metadata: {
          negative_prompt: 'blurry',
          audio_url: 'https://example.test/a.mp3',
          prompt_extend: false,
          shot_type: 'multi',
          watermark: false,
          seed: 42,
          output_config: { audio_generation: 'Enabled' },
        },
      }).call.extras,
    ).toEqual({
      negative_prompt: 'blurry',
      audio_url: 'https://example.test/a.mp3',
      prompt_extend: false,
      shot_type: 'multi',
      watermark: false,
      seed: 42,
      audio: true,
    });
    expect(
      planned({ metadata: { audio: false, output_config: { audio_generation: 'Enabled' } } }).call.extras,
    ).toEqual({
      audio: false,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a non-string negative prompt', { negative_prompt: 1 }, 'metadata.negative_prompt'],
    ['a non-boolean audio', { audio: 'yes' }, 'metadata.audio'],
    ['a non-URL audio track', { audio_url: 'javascript:x' }, 'metadata.audio_url'],
    ['an unknown shot type', { shot_type: 'many' }, 'metadata.shot_type'],
    ['a negative seed', { seed: -1 }, 'metadata.seed'],
    ['a fractional seed', { seed: 1.5 }, 'metadata.seed'],
    ['a seed too large', { seed: 2 ** 31 }, 'metadata.seed'],
    [
      'an unknown audio_generation',
      { output_config: { audio_generation: 'On' } },
      'metadata.output_config.audio_generation',
    ],
  ])('refuses %s', (_, metadata, param) => {
    expect(refusal({ metadata: metadata as VideoRequest['metadata'] }).param).toBe(param);
  });

  it('warns about an aspect ratio the size does not have, and keeps quiet about one it has', () => {
    expect(planned({ aspectRatio: '16:9' }).warnings).toEqual([]);
    expect(
      planned({ aspectRatio: '9:16', metadata: { output_config: { aspect_ratio: '1:1' } } }).warnings,
    ).toEqual([
      'aspect_ratio was ignored: omega2.6-t2v:1280*720 makes 1280*720 (16:9)',
      'metadata.output_config.aspect_ratio was ignored: omega2.6-t2v:1280*720 makes 1280*720 (16:9)',
    ]);
    expect(
      planned({ model: 'omega2.6-i2v:1920*1080', images: [firstFrame], aspectRatio: '16:9' }).warnings,
    ).toEqual(["aspect_ratio was ignored: omega2.6-i2v:1920*1080 follows the first frame's shape"]);
  });
});
