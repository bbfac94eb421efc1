import { isVideoImageForm } from './video-image-form.util';

describe('isVideoImageForm', () => {
  it.each([
    'https://example.test/a.png',
    'http://example.test/frame?x=1',
    'data:image/png;base64,iVBORw0KGgo=',
  ])('accepts %s', (url) => expect(isVideoImageForm(url)).toBe(true));

  it.each([
    ['another scheme', 'ftp://example.test/a.png'],
    ['a script URL', 'javascript:alert(1)'],
    ['bare Base64', 'iVBORw0KGgo='],
    ['a data: URI of another type', 'data:text/plain;base64,aGk='],
    ['a data: URI without its data', 'data:image/png;base64,'],
    ['a URL with spaces', 'https://example.test/a b.png'],
    ['an empty string', ''],
  ])('refuses %s', (_, url) => expect(isVideoImageForm(url)).toBe(false));
});
