import { iotaRulesOf, resolveIotaSize } from './eta-iota-models';

const rulesOf = (model: string) => {
  const rules = iotaRulesOf(model);
  if (!rules) throw new Error(`no rules for ${model}`);
  return rules;
};

describe('iota sizes', () => {
  const early = rulesOf('eta-iota-4-0-250828');
  const later = rulesOf('eta-iota-4-5-251128');

  it('knows the three models and no other', () => {
    expect(iotaRulesOf('eta-iota-5-0-260128')).toBe(later);
    expect(iotaRulesOf('eta-iota-9')).toBeUndefined();
  });

  it('defaults to 2048x2048 and maps keywords to squares', () => {
    expect(resolveIotaSize(early, undefined)).toEqual({ width: 2048, height: 2048 });
    expect(resolveIotaSize(early, '1K')).toEqual({ width: 1024, height: 1024 });
    expect(resolveIotaSize(later, '4K')).toEqual({ width: 4096, height: 4096 });
  });

  it('refuses 1K on 4.5 and 5.0', () => {
    expect(resolveIotaSize(later, '1K')).toHaveProperty('refusal');
  });

  it.each([
    ['1280x720', true, false],
    ['1279x720', false, false],
    ['2560x1440', true, true],
    ['4096x4096', true, true],
    ['4097x4096', false, false],
    ['8000x400', false, false], // 20:1
    ['3200x200', false, false], // 16:1 but below every minimum area
    ['8192x512', true, true], // 16:1 at 4 194 304 px
  ])('%s: 4.0 %s, 4.5 %s', (size, onEarly, onLater) => {
    expect('width' in resolveIotaSize(early, size)).toBe(onEarly);
    expect('width' in resolveIotaSize(later, size)).toBe(onLater);
  });
});
