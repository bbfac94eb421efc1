import type { VideoRequest } from './video-adapter';
import { metadataOutputConfigOf, secondsParamOf, unreadFieldWarnings } from './video-request-fields.util';

describe('secondsParamOf', () => {
  it('names the unified style’s field duration, every other style’s seconds', () => {
    const request = (style: VideoRequest['style']) => ({ style }) as VideoRequest;
    expect(secondsParamOf(request('unified'))).toBe('duration');
    expect(secondsParamOf(request('openai'))).toBe('seconds');
    expect(secondsParamOf(request('official'))).toBe('seconds');
  });
});

describe('metadataOutputConfigOf', () => {
  it('reads output_config only when it is an object', () => {
    expect(metadataOutputConfigOf({ output_config: { resolution: '1080P' } })).toEqual({
      resolution: '1080P',
    });
    expect(metadataOutputConfigOf({ output_config: '1080P' })).toBeUndefined();
    expect(metadataOutputConfigOf(undefined)).toBeUndefined();
  });
});

describe('unreadFieldWarnings', () => {
  it('names every extra and every metadata key the rules did not read', () => {
    const read = new Set(['seed']);
    expect(unreadFieldWarnings('m', { style: 'anime' }, { seed: 1, mood: 'calm' }, read)).toEqual([
      'style is ignored: m has no such option',
      'metadata.mood is ignored: m has no such option',
    ]);
    expect(unreadFieldWarnings('m', {}, { seed: 1 }, read)).toEqual([]);
  });
});
