import { parseBase64DataUrl } from './base64-data-url.util';

describe('parseBase64DataUrl', () => {
  it('splits the MIME type from the Base64 text, past any parameters', () => {
    expect(parseBase64DataUrl('data:image/png;base64,iVBORw0K')).toEqual({
      mimeType: 'image/png',
      data: 'iVBORw0K',
    });
    expect(parseBase64DataUrl('data:image/png;name=a.png;base64,AAAA')).toEqual({
      mimeType: 'image/png',
      data: 'AAAA',
    });
  });

  it('reads any other form as no Base64 data: URL', () => {
    expect(parseBase64DataUrl('data:image/png,raw-bytes')).toBeUndefined();
    expect(parseBase64DataUrl('data:;base64,AAAA')).toBeUndefined();
    expect(parseBase64DataUrl('https://example.test/data:image/png;base64,AAAA')).toBeUndefined();
  });
});
