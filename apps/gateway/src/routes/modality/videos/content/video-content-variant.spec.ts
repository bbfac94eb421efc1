import { GatewayError } from '@gateway/errors';
import { videoContentVariantOf } from './video-content-variant';

describe('videoContentVariantOf', () => {
  it('reads the three variants, video by default', () => {
    expect(videoContentVariantOf(undefined)).toBe('video');
    expect(['video', 'thumbnail', 'spritesheet'].map(videoContentVariantOf)).toEqual([
      'video',
      'thumbnail',
      'spritesheet',
    ]);
  });

  it.each(['poster', '', 'VIDEO', ['video', 'thumbnail'], '__proto__'])(
    'refuses %p with a 400 naming it',
    (value) => {
      let refusal: unknown;
      try {
        videoContentVariantOf(value);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(GatewayError);
      expect(refusal).toMatchObject({ httpStatus: 400, param: 'variant' });
    },
  );
});
