import { compatImageRulesOf, resolveCompatSize, unsupportedValueMessage } from './compat-image-models';

const rulesOf = (model: string) => {
  const rules = compatImageRulesOf(model);
  if (!rules) throw new Error(`no rules for ${model}`);
  return rules;
};

describe('compat image family rules', () => {
  it('knows each family of §2.3, treats other ids as relay names and refuses unknown- ids', () => {
    expect(
      ['draw-3', 'draw-2', 'img-1', 'img-2', 'img-2-pro', 'zeta-4-2-image'].map(
        (model) => rulesOf(model).family,
      ),
    ).toEqual(['draw-3', 'draw-2', 'img-1', 'img-2', 'img-2', 'relay']);
    expect(rulesOf('relay-picture-9').family).toBe('relay');
    expect(compatImageRulesOf('unknown-model')).toBeUndefined();
  });

  it.each([
    ['draw-2', ['256x256', '512x512', '1024x1024'], ['1792x1024', '1536x1024', 'auto']],
    ['draw-3', ['1024x1024', '1792x1024', '1024x1792'], ['512x512', '1536x1024', 'auto']],
    ['img-1', ['1024x1024', '1536x1024', '1024x1536', 'auto'], ['512x512', '1792x1024', '2048x2048']],
  ])('%s accepts exactly its listed sizes', (model, accepted, refused) => {
    for (const size of accepted)
      expect(resolveCompatSize(rulesOf(model), size)).not.toHaveProperty('refusal');
    for (const size of refused) expect(resolveCompatSize(rulesOf(model), size)).toHaveProperty('refusal');
  });

  it('names the allowed sizes when refusing one', () => {
    expect(resolveCompatSize(rulesOf('draw-2'), '300x300')).toEqual({
      refusal: "Invalid value: '300x300'. Supported values are: '256x256', '512x512', and '1024x1024'.",
    });
  });

  it('gives 1024x1024 for an absent size and for auto', () => {
    expect(resolveCompatSize(rulesOf('draw-3'), undefined)).toEqual({ width: 1024, height: 1024 });
    expect(resolveCompatSize(rulesOf('img-2'), 'auto')).toEqual({ width: 1024, height: 1024 });
  });

  describe('img-2 arithmetic rule', () => {
    const img2 = rulesOf('img-2-pro');

    it.each([
      ['1024x1024', 1024, 1024],
      ['1536x1152', 1536, 1152],
      ['3840x2160', 3840, 2160],
      ['2048x2048', 2048, 2048],
      ['1024x3072', 1024, 3072],
    ])('accepts %s', (size, width, height) => {
      expect(resolveCompatSize(img2, size)).toEqual({ width, height });
    });

    it.each([
      ['1920x1080', 'multiples of 16'],
      ['4096x2304', 'long side'],
      ['3840x1024', 'ratio'],
      ['800x800', 'total number of pixels'],
      ['3840x2880', 'total number of pixels'],
      ['big', 'WIDTHxHEIGHT'],
    ])('refuses %s (%s)', (size, reason) => {
      const result = resolveCompatSize(img2, size);
      expect('refusal' in result && result.refusal).toContain(reason);
    });
  });

  it('lets relays take any WxH up to 4096 a side', () => {
    expect(resolveCompatSize(rulesOf('zeta-4-2-image'), '2560x1440')).toEqual({ width: 2560, height: 1440 });
    expect(resolveCompatSize(rulesOf('zeta-4-2-image'), '5000x100')).toHaveProperty('refusal');
  });

  it('words the list of allowed values as the wire does', () => {
    expect(unsupportedValueMessage('x', ['a', 'b'])).toBe(
      "Invalid value: 'x'. Supported values are: 'a' and 'b'.",
    );
  });
});
