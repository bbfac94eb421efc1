import { findUnstorableText, hasUnstorableText } from './storable-text.check';

describe('unstorable text', () => {
  it.each([['a\u0000b'], ['\ud800'], ['x\udfff'], ['\ud83d']])('finds %j', (text) => {
    expect(hasUnstorableText(text)).toBe(true);
  });

  it('lets paired surrogates and other control characters through', () => {
    expect(hasUnstorableText('a \ud83d\ude00 \t\u0001')).toBe(false);
  });

  it('names the first key or string that holds it, however deep', () => {
    expect(findUnstorableText({ prompt: 'ok', image_urls: ['fine', 'b\u0000ad'] })).toBe('image_urls[1]');
    expect(findUnstorableText({ extra: { '\u0000': 1 } })).toBe('extra["\\u0000"]');
    expect(findUnstorableText({ req_json: { logo_info: { text: '\ud800' } } })).toBe(
      'req_json.logo_info.text',
    );
    expect(findUnstorableText('\u0000')).toBe('(body)');
  });

  it('finds nothing in storable values', () => {
    expect(findUnstorableText({ a: [1, null, true, 'x', { b: '\ud83d\ude00' }] })).toBeUndefined();
  });
});
