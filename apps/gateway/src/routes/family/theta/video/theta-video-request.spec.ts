import { GatewayError } from '@gateway/errors';
import { toThetaVideoDraft } from './theta-video-request';

/** A 1×1 PNG and a 1×1 GIF, as Base64. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const bodyWith = (url: string) => ({
  model: 'eta-theta-2-0-260128',
  content: [
    { type: 'text', text: 'a kite' },
    { type: 'image_url', image_url: { url }, role: 'first_frame' },
  ],
});

function refusalOf(url: string): GatewayError {
  try {
    toThetaVideoDraft(bodyWith(url));
  } catch (error) {
    if (error instanceof GatewayError) return error;
  }
  throw new Error('expected a GatewayError');
}

const imageUrlOf = (url: string) => {
  const { content } = toThetaVideoDraft(bodyWith(url)).fields.extras;
  return (content as Array<{ image_url: { url: string } }>)[1].image_url.url;
};

describe('toThetaVideoDraft', () => {
  it.each([
    ['invalid Base64', 'data:image/png;base64,@@not base64@@', 'is a data: URI that is not Base64'],
    [
      'Base64 of plain text',
      `data:image/png;base64,${Buffer.from('just some text').toString('base64')}`,
      'is not a PNG, JPEG or WebP image',
    ],
    ['a GIF', `data:image/gif;base64,${GIF}`, 'is not a PNG, JPEG or WebP image'],
    [
      'megabytes of junk',
      `data:image/png;base64,${Buffer.alloc(2 * 1024 * 1024, 0x5a).toString('base64')}`,
      'is not a PNG, JPEG or WebP image',
    ],
  ])('refuses a data: image of %s with a 400 naming the item', (_case, url, problem) => {
    const refusal = refusalOf(url);
    expect(refusal.httpStatus).toBe(400);
    expect(refusal.param).toBe('content[1].image_url.url');
    expect(refusal.message).toBe(`content[1].image_url.url ${problem}.`);
  });

  it('keeps a PNG declared by its bytes, and leaves https URLs and asset ids to the family rules', () => {
    expect(imageUrlOf(`data:image/webp;base64,${PNG}`)).toBe(`data:image/png;base64,${PNG}`);
    expect(imageUrlOf('https://cdn.test/i.png')).toBe('https://cdn.test/i.png');
    expect(imageUrlOf('asset://asset-1')).toBe('asset://asset-1');
  });
});
