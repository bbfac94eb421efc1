import { estimateTheta2Tokens } from './theta2-token-estimate';

describe('estimateTheta2Tokens', () => {
  it('counts a token per 1024 pixels of each of 24 frames a second at the ratio asked', () => {
    expect(estimateTheta2Tokens({ seconds: 5, resolution: '720p', aspectRatio: '16:9' })).toBe(108_000);
    expect(estimateTheta2Tokens({ seconds: 4, resolution: '480p', aspectRatio: '1:1' })).toBe(21_600);
    expect(estimateTheta2Tokens({ seconds: 10, resolution: '1080p', aspectRatio: '9:16' })).toBe(486_000);
  });

  it('holds the widest frame where the ratio follows the inputs, and 15 s where the model decides', () => {
    const adaptive = estimateTheta2Tokens({ seconds: 5, resolution: '720p', aspectRatio: 'adaptive' });
    expect(adaptive).toBe(estimateTheta2Tokens({ seconds: 5, resolution: '720p', aspectRatio: '21:9' }));
    expect(adaptive).toBeGreaterThan(108_000);
    expect(estimateTheta2Tokens({ seconds: 5, resolution: '720p', aspectRatio: null })).toBe(adaptive);
    expect(estimateTheta2Tokens({ seconds: -1, resolution: '720p', aspectRatio: '16:9' })).toBe(324_000);
  });
});
