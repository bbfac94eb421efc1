import { resolveModelName } from './combined-model-name';

const KNOWN = new Set(['gamma-2.6', 'gamma-3.0-omni', 'delta-2', 'delta-2-pro', 'epsilon_3_1', 'sv-1.5']);
const isKnown = (model: string) => KNOWN.has(model);

describe('resolveModelName', () => {
  it('takes a known model as its own base, without dimensions', () => {
    expect(resolveModelName('delta-2-pro', isKnown)).toEqual({ base: 'delta-2-pro', dimensions: {} });
    expect(resolveModelName('epsilon_3_1', isKnown)).toEqual({ base: 'epsilon_3_1', dimensions: {} });
  });

  it.each([
    [
      'gamma-2.6-motion-pro-1080p',
      'gamma-2.6',
      { scene_type: 'motion_control', motion_level: 'pro', resolution: '1080p' },
    ],
    ['gamma-3.0-omni-1080p-ref-audio', 'gamma-3.0-omni', { resolution: '1080p', ref: 'true', audio: 'true' }],
    ['sv-1.5-pro-1080p-audio', 'sv-1.5', { motion_level: 'pro', resolution: '1080p', audio: 'true' }],
    ['delta-2-pro-720P-offpeak', 'delta-2-pro', { resolution: '720p', offpeak: 'true' }],
  ])('reads %s as %s with its dimensions', (name, base, dimensions) => {
    expect(resolveModelName(name, isKnown)).toEqual({ base, dimensions });
  });

  it('takes the longest known prefix as the base', () => {
    expect(resolveModelName('delta-2-pro-1080p', isKnown)?.base).toBe('delta-2-pro');
  });

  it.each([
    ['an unknown word after the base', 'gamma-2.6-turbo-1080p'],
    ['a dimension set twice', 'gamma-2.6-720p-1080p'],
    ['no known prefix', 'kappa-9-1080p'],
    ['an unknown model without words', 'nothing'],
    ['a trailing separator', 'gamma-2.6-'],
    ['a prototype key as a word', 'gamma-2.6-constructor'],
  ])('refuses %s', (_case, name) => {
    expect(resolveModelName(name, isKnown)).toBeUndefined();
  });
});
