import { betaImageModelOf, betaImageReqKeyOf, betaSubmissionArea, betaTierOfArea } from './beta-action.wire';

describe('the beta Action wire', () => {
  it('maps the image models to their req_key and back, and nothing else', () => {
    expect(betaImageReqKeyOf('beta-4.0')).toBe('beta_t2i_v40');
    expect(betaImageReqKeyOf('beta-4.5')).toBe('beta_t2i_v45');
    expect(betaImageModelOf('beta_t2i_v45')).toBe('beta-4.5');
    for (const name of ['beta-video-3.0', 'constructor', 'toString'])
      expect(betaImageReqKeyOf(name)).toBeUndefined();
    expect(betaImageModelOf('beta_t2v_v30')).toBeUndefined();
  });

  it.each([
    [1024 * 1024, '1k'],
    [1368 * 768, '1k'],
    [1448 * 1448, '1k'],
    [1449 * 1449, '2k'],
    [2048 * 2048, '2k'],
    [2896 * 2896, '2k'],
    [2897 * 2897, '4k'],
    [4096 * 4096, '4k'],
  ])('prices an area of %i pixels at the nearest tier, %s', (area, tier) => {
    expect(betaTierOfArea(area)).toBe(tier);
  });

  it('reads the output area from width and height, else size, else the 2048² default', () => {
    expect(betaSubmissionArea({ width: 1536, height: 1024, size: 99 })).toBe(1536 * 1024);
    expect(betaSubmissionArea({ size: 1048576 })).toBe(1048576);
    expect(betaSubmissionArea({ width: 1536 })).toBe(2048 * 2048);
    expect(betaSubmissionArea({})).toBe(2048 * 2048);
  });
});
