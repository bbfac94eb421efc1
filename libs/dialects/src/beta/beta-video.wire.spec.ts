import {
  betaVideoFramesOf,
  betaVideoOffer,
  betaVideoReqKeyEntryOf,
  betaVideoReqKeyOf,
  betaVideoSecondsOf,
  isBetaVideoTableModel,
} from './beta-video.wire';

describe('the beta video wire', () => {
  it.each([
    ['beta-video-3.0', 'text', '720p', 'beta_t2v_v30'],
    ['beta-video-3.0', 'first_frame', '720p', 'beta_i2v_first_v30'],
    ['beta-video-3.0', 'first_last', '720p', 'beta_i2v_first_tail_v30'],
    ['beta-video-3.0', 'text', '1080p', 'beta_t2v_v30_1080p'],
    ['beta-video-3.0', 'first_frame', '1080p', 'beta_i2v_first_v30_1080'],
    ['beta-video-3.0', 'first_last', '1080p', 'beta_i2v_first_tail_v30_1080'],
    ['beta-video-3.0-pro', 'text', '1080p', 'beta_ti2v_v30_pro'],
    ['beta-video-3.0-pro', 'first_frame', '720p', 'beta_ti2v_v30_pro'],
    ['beta-video-2.0', 'text', '720p', 'beta_vgfm_t2v_l20'],
    ['beta-video-2.0', 'first_frame', '720p', 'beta_vgfm_i2v_l20'],
  ] as const)('runs %s in %s at %s with %s (§4.3)', (model, mode, resolution, reqKey) => {
    expect(betaVideoReqKeyOf(model, mode, resolution)).toBe(reqKey);
  });

  it('reads a client key back into its public model, mode and resolution', () => {
    expect(betaVideoReqKeyEntryOf('beta_i2v_first_tail_v30_1080')).toEqual({
      model: 'beta-video-3.0',
      mode: 'first_last',
      resolution: '1080p',
    });
    expect(betaVideoReqKeyEntryOf('beta_vgfm_i2v_l20')).toEqual({
      model: 'beta-video-2.0',
      mode: 'first_frame',
      resolution: '720p',
    });
    expect(betaVideoReqKeyEntryOf('beta_ti2v_v30_pro')).toBeUndefined();
    expect(betaVideoReqKeyEntryOf('beta_t2i_v40')).toBeUndefined();
  });

  it.each([
    [121, 5],
    [241, 10],
    [361, 15],
    [120, undefined],
    [1, undefined],
    [-23, undefined],
  ])('reads frames %i as %s seconds', (frames, seconds) => {
    expect(betaVideoSecondsOf(frames)).toBe(seconds);
  });

  it('has no key for what the table does not offer', () => {
    expect(betaVideoReqKeyOf('beta-video-2.0', 'first_last', '720p')).toBeUndefined();
    expect(betaVideoReqKeyOf('beta-video-2.0', 'text', '1080p')).toBeUndefined();
    expect(betaVideoReqKeyOf('beta-video-3.0-pro', 'first_last', '1080p')).toBeUndefined();
    expect(betaVideoReqKeyOf('beta-4.0', 'text', '720p')).toBeUndefined();
  });

  it('offers each model its modes and resolutions', () => {
    expect(betaVideoOffer('beta-video-2.0')).toEqual({
      modes: ['text', 'first_frame'],
      resolutions: ['720p'],
    });
    expect(betaVideoOffer('beta-video-3.0')).toEqual({
      modes: ['text', 'first_frame', 'first_last'],
      resolutions: ['720p', '1080p'],
    });
    expect(isBetaVideoTableModel('beta-video-3.0-pro')).toBe(true);
    expect(isBetaVideoTableModel('beta_t2v_v30')).toBe(false);
  });

  it('writes seconds as 24 frames a second plus one', () => {
    expect([5, 10, 15].map(betaVideoFramesOf)).toEqual([121, 241, 361]);
  });
});
