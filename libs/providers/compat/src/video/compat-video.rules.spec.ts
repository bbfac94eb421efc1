import type { VideoImage, VideoPlan, VideoRequest } from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  refusedVideoPlan,
  videoCallOf,
  videoRequestOf,
} from '@gateway/providers-core/testing';
import { compatVideoRules } from './compat-video.rules';

type CompatRequestFields = Partial<VideoRequest> & { model: string };

const plan = (fields: CompatRequestFields): VideoPlan =>
  compatVideoRules.planVideo(videoRequestOf({ prompt: 'a lighthouse at dusk', ...fields }));
const planned = (fields: CompatRequestFields) => acceptedVideoPlan(plan(fields));
const refusalOf = (fields: CompatRequestFields) => refusedVideoPlan(plan(fields));

/**
 * A PNG signature and header chunk of that size: all the rules read (image-size parses headers only),
 * and cheap where encoding a real 1280x720 image takes seconds.
 */
function png(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'ascii');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.writeUInt8(8, 24);
  header.writeUInt8(6, 25);
  return `data:image/png;base64,${header.toString('base64')}`;
}
const image = (url: string, role: VideoImage['role'] = 'reference', source = 'images'): VideoImage => ({
  role,
  url,
  source,
});
const LINK = 'https://images.example.test/frame.png';
const DELTA_HANDLE = { videoId: 'video_src', seconds: 8, size: '1280x720', resolution: '720p' };

describe('compatVideoRules', () => {
  it('serves the families of upstreams §2.4 and the nu-/xi- prefixes, nothing else', () => {
    for (const model of ['delta-2', 'delta-2-pro', 'epsilon_3_1', 'epsilon_3_1-fast', 'epsilon_3_1-extend']) {
      expect(compatVideoRules.servesVideoModel(model)).toBe(true);
    }
    for (const model of ['zeta-video-3', 'zeta-video-3-pro', 'zeta-video-3-max', 'nu-1', 'xi-video-2']) {
      expect(compatVideoRules.servesVideoModel(model)).toBe(true);
    }
    for (const model of ['nu', 'nu-', 'xi', 'img-1', 'zeta-4-2-image', 'gamma-2.6', 'delta-3']) {
      expect(compatVideoRules.servesVideoModel(model)).toBe(false);
    }
  });

  describe('delta-*', () => {
    it('defaults to 4 s at 720x1280, priced at 720p, text mode', () => {
      expect(planned({ model: 'delta-2' }).call).toEqual(
        videoCallOf({
          family: 'delta-2',
          prompt: 'a lighthouse at dusk',
          seconds: 4,
          resolution: '720p',
          size: '720x1280',
        }),
      );
    });

    it.each([
      [{ seconds: 6 }, 'seconds', 'seconds must be one of 4, 8, 12 for delta-2'],
      [{ seconds: 6, style: 'unified' as const }, 'duration', 'duration must be one of 4, 8, 12 for delta-2'],
      [{ resolution: '1792x1024' }, 'size', 'size must be one of 720x1280, 1280x720 for delta-2'],
      [{ resolution: '1080p' }, 'size', 'size must be one of 720x1280, 1280x720 (or 720p) for delta-2'],
      [{ aspectRatio: '1:1' }, 'aspect_ratio', 'aspect_ratio must be 16:9 or 9:16 for delta-2'],
    ])('refuses %j naming %s and the allowed values', (fields, param, message) => {
      const refusal = refusalOf({ model: 'delta-2', ...fields });
      expect(refusal.param).toBe(param);
      expect(refusal.message).toContain(message);
    });

    it('takes delta-2-pro sizes at the 1024p tier and 12 s', () => {
      const { call } = planned({ model: 'delta-2-pro', resolution: '1792x1024', seconds: 12 });
      expect(call).toMatchObject({ size: '1792x1024', resolution: '1024p', seconds: 12 });
      expect(planned({ model: 'delta-2-pro', resolution: '1024P', aspectRatio: '9:16' }).call.size).toBe(
        '1024x1792',
      );
    });

    it('names the resolution field when metadata.output_config.resolution set it', () => {
      const refusal = refusalOf({
        model: 'delta-2',
        resolution: '4k',
        metadata: { output_config: { resolution: '4k' } },
      });
      expect(refusal.param).toBe('metadata.output_config.resolution');
    });

    it('orients the default size by aspect_ratio', () => {
      expect(planned({ model: 'delta-2', aspectRatio: '16:9' }).call.size).toBe('1280x720');
    });

    it('takes one image as the first frame, and picks the size of an uploaded image when none was asked', () => {
      const { call } = planned({ model: 'delta-2', images: [image(png(1280, 720), 'first_frame', 'image')] });
      expect(call).toMatchObject({
        mode: 'first_frame',
        size: '1280x720',
        images: [{ role: 'first_frame' }],
      });
      expect(planned({ model: 'delta-2', images: [image(LINK)] }).call.images).toEqual([
        { role: 'first_frame', url: LINK },
      ]);
    });

    it('refuses an uploaded image of another size than the one asked, a second image and a last frame', () => {
      const mismatch = refusalOf({
        model: 'delta-2',
        resolution: '720x1280',
        images: [image(png(1280, 720), 'first_frame', 'input_reference')],
      });
      expect(mismatch).toMatchObject({ param: 'input_reference' });
      expect(mismatch.message).toContain('exactly the video size (720x1280); the image is 1280x720');
      expect(refusalOf({ model: 'delta-2', images: [image(LINK), image(LINK)] }).message).toBe(
        'delta-2 takes one image',
      );
      expect(
        refusalOf({ model: 'delta-2', images: [image(LINK, 'last_frame', 'metadata.last_frame_url')] }),
      ).toMatchObject({ param: 'metadata.last_frame_url' });
    });

    it('passes the delta extras on, and drops metadata the wire has no field for, saying so', () => {
      const { call, warnings } = planned({
        model: 'delta-2',
        style: 'unified',
        extras: { watermark: false, private: true, colour: 'red' },
        metadata: { seconds: 4, scene_type: 'x' },
      });
      expect(call.extras).toEqual({ watermark: false, private: true });
      expect(call.metadata).toBeNull();
      expect(warnings).toEqual([
        'metadata.scene_type was not sent: the delta-2 wire has no metadata field',
        'colour was not sent: delta-2 has no such field on its wire',
      ]);
    });
  });

  describe('epsilon_*', () => {
    it('requires 8 s at 1080p and 4K, and makes 8 the default there', () => {
      expect(planned({ model: 'epsilon_3_1', resolution: '1920x1080' }).call).toMatchObject({
        seconds: 8,
        resolution: '1080p',
      });
      expect(planned({ model: 'epsilon_3_1', resolution: '4K' }).call).toMatchObject({
        size: '3840x2160',
        resolution: '4k',
      });
      expect(refusalOf({ model: 'epsilon_3_1-fast', resolution: '1920x1080', seconds: 4 })).toEqual({
        ok: false,
        param: 'seconds',
        message: 'seconds must be 8 for epsilon_3_1-fast at 1080p',
      });
    });

    it('takes 4, 6 or 8 s at 720p and defaults to 4 s landscape', () => {
      expect(planned({ model: 'epsilon_3_1' }).call).toMatchObject({ seconds: 4, size: '1280x720' });
      expect(planned({ model: 'epsilon_3_1', seconds: 6, resolution: '720x1280' }).call.size).toBe(
        '720x1280',
      );
      expect(refusalOf({ model: 'epsilon_3_1', seconds: 5 }).message).toBe(
        'seconds must be one of 4, 6, 8 for epsilon_3_1',
      );
    });

    it('sends every image as a reference (reference mode: 8 s, steered to landscape), saying so for frames', () => {
      const { call, warnings } = planned({
        model: 'epsilon_3_1',
        resolution: '720x1280',
        images: [image(LINK, 'first_frame', 'image')],
      });
      expect(call).toMatchObject({
        mode: 'reference',
        seconds: 8,
        size: '1280x720',
        images: [{ role: 'reference', url: LINK }],
      });
      expect(warnings).toEqual([
        'epsilon_3_1 takes reference images only on its wire: the first frame in image was sent as a reference image',
        'epsilon_3_1 makes reference-image videos in landscape: size 720x1280 was steered to 1280x720',
      ]);
      expect(refusalOf({ model: 'epsilon_3_1', images: [image(LINK)], seconds: 6 }).message).toBe(
        'seconds must be 8 for epsilon_3_1 with reference images',
      );
    });

    it('keeps epsilon_3_1-extend at 8 s of 720p', () => {
      expect(planned({ model: 'epsilon_3_1-extend' }).call).toMatchObject({ seconds: 8, size: '1280x720' });
      expect(refusalOf({ model: 'epsilon_3_1-extend', seconds: 4 }).param).toBe('seconds');
      expect(refusalOf({ model: 'epsilon_3_1-extend', resolution: '1920x1080' }).param).toBe('size');
    });

    it('passes metadata on (relays keep it)', () => {
      expect(planned({ model: 'epsilon_3_1', metadata: { user: 'u1' } }).call.metadata).toEqual({
        user: 'u1',
      });
    });
  });

  describe('zeta-video-*', () => {
    it('defaults to 6 s at 720P and takes 2:3, 3:2, 1:1', () => {
      expect(planned({ model: 'zeta-video-3', aspectRatio: '3:2' }).call).toMatchObject({
        seconds: 6,
        size: '720P',
        resolution: '720p',
        aspectRatio: '3:2',
      });
      expect(planned({ model: 'zeta-video-3', resolution: '1080p', seconds: 15 }).call).toMatchObject({
        size: '1080P',
        resolution: '1080p',
        seconds: 15,
      });
    });

    it('reads a WxH size at an allowed ratio as size and ratio, and refuses one at another ratio', () => {
      expect(planned({ model: 'zeta-video-3', resolution: '1080x1080' }).call).toMatchObject({
        size: '1080P',
        aspectRatio: '1:1',
      });
      const refusal = refusalOf({ model: 'zeta-video-3', resolution: '1280x720' });
      expect(refusal.param).toBe('size');
      expect(refusal.message).toContain('720P or 1080P');
    });

    it('refuses 16:9, which only the relay unified route can express, saying so', () => {
      const refusal = refusalOf({ model: 'zeta-video-3', aspectRatio: '16:9' });
      expect(refusal.param).toBe('aspect_ratio');
      expect(refusal.message).toContain("only on the relay's unified JSON route");
      expect(refusal.message).toContain('2:3, 3:2, 1:1');
    });

    it('fixes -pro at 10 s and -max at 15 s, billed so, with a warning when asked otherwise', () => {
      const pro = planned({ model: 'zeta-video-3-pro', seconds: 5 });
      expect(pro.call.seconds).toBe(10);
      expect(pro.warnings).toEqual([
        'zeta-video-3-pro always makes 10-second videos: seconds 5 was replaced by 10 (billed for 10 s)',
      ]);
      const max = planned({ model: 'zeta-video-3-max' });
      expect(max).toMatchObject({ call: { seconds: 15 }, warnings: [] });
    });

    it('reads one image as the first frame, two as first and last, up to six', () => {
      expect(planned({ model: 'zeta-video-3', images: [image(png(8, 8))] }).call.mode).toBe('first_frame');
      const two = planned({
        model: 'zeta-video-3',
        images: [image(png(8, 8), 'last_frame', 'b'), image(png(9, 9), 'first_frame', 'a')],
      });
      expect(two.call.mode).toBe('first_last');
      expect(two.call.images.map((input) => input.role)).toEqual(['first_frame', 'last_frame']);
      expect(two.call.images[0].url).toBe(png(9, 9));
      expect(planned({ model: 'zeta-video-3', images: Array(6).fill(image(png(8, 8))) }).call.mode).toBe(
        'reference',
      );
      expect(refusalOf({ model: 'zeta-video-3', images: Array(7).fill(image(png(8, 8))) }).message).toBe(
        'zeta-video-3 takes at most 6 images',
      );
    });

    it('refuses an image URL: the wire takes uploaded files only', () => {
      const refusal = refusalOf({ model: 'zeta-video-3', images: [image(LINK, 'first_frame', 'image')] });
      expect(refusal.param).toBe('image');
      expect(refusal.message).toContain('an image URL cannot be sent on its wire');
    });
  });

  describe('nu-* and xi-*', () => {
    it('pass seconds, size and ratio as sent, with the interface default of 5 s', () => {
      expect(
        planned({ model: 'nu-2', resolution: '1920x1080', size: '1920x1080', aspectRatio: '21:9' }).call,
      ).toMatchObject({
        family: 'nu',
        seconds: 5,
        size: '1920x1080',
        resolution: '1080p',
        aspectRatio: '21:9',
      });
      expect(planned({ model: 'xi-1', seconds: 7 }).call).toMatchObject({
        family: 'xi',
        seconds: 7,
        size: null,
        resolution: null,
      });
      expect(refusalOf({ model: 'xi-1', seconds: 2.5 }).param).toBe('seconds');
    });
  });

  describe('remix', () => {
    it('keeps a delta source video’s seconds and size', () => {
      const { call, warnings } = planned({ model: 'delta-2', remixOf: DELTA_HANDLE, seconds: 4 });
      expect(call).toMatchObject({
        mode: 'remix',
        seconds: 8,
        size: '1280x720',
        resolution: '720p',
        remixOf: DELTA_HANDLE,
      });
      expect(warnings).toEqual(["seconds was ignored: a remix keeps the source video's 8 seconds"]);
    });

    it('extends with epsilon_3_1-extend at 8 s of a 720p source, and refuses a 1080p source', () => {
      expect(planned({ model: 'epsilon_3_1-extend', remixOf: DELTA_HANDLE }).call).toMatchObject({
        mode: 'remix',
        seconds: 8,
        resolution: '720p',
      });
      const refusal = refusalOf({
        model: 'epsilon_3_1-extend',
        remixOf: { ...DELTA_HANDLE, size: '1920x1080', resolution: '1080p' },
      });
      expect(refusal).toMatchObject({ param: 'video_id' });
    });

    it.each(['epsilon_3_1', 'zeta-video-3', 'nu-1'])(
      'refuses a remix on %s naming the families that have one',
      (model) => {
        expect(refusalOf({ model, remixOf: DELTA_HANDLE })).toEqual({
          ok: false,
          param: 'model',
          message: `remix is available for delta-2, delta-2-pro, epsilon_3_1-extend only: ${model} has no remix on its wire`,
        });
      },
    );
  });

  it('refuses reference clips, subjects, a missing prompt and an image in another form', () => {
    expect(refusalOf({ model: 'delta-2', clips: [{ type: 'video', url: LINK }] }).param).toBe(
      'metadata.video_url',
    );
    expect(refusalOf({ model: 'delta-2', subjects: [{ id: 's', images: [] }] }).param).toBe('subjects');
    expect(refusalOf({ model: 'delta-2', prompt: ' ' }).param).toBe('prompt');
    expect(refusalOf({ model: 'epsilon_3_1', images: [image('ftp://x/y.png')] }).param).toBe('images');
  });
});
