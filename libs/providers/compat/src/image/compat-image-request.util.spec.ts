import type { ImageEditCall, ImageRequest } from '@gateway/providers-core';
import { jpegInput, pngInput, urlInput } from '../testing/image-inputs';
import { toCompatEditsForm, toCompatGenerationsBody } from './compat-image-request.util';
import { compatImageRules } from './compat-image.rules';

/** The call a channel receives: the plan's, with the channel's upstream model id. */
function callOf(
  fields: Partial<ImageRequest> & { model: string },
  upstreamModel = fields.model,
): ImageEditCall {
  const request: ImageRequest = { prompt: 'a lighthouse', responseFormat: 'url', images: [], ...fields };
  const plan = compatImageRules.plan(request, fields.mask || fields.images?.length ? 'edit' : 'generate');
  if (!plan.ok) throw new Error(plan.message);
  return { ...plan.call, upstreamModel };
}

const generationsBodyOf = (call: ImageEditCall) => JSON.parse(toCompatGenerationsBody(call));

async function formOf(call: ImageEditCall): Promise<FormData> {
  const { body, contentType } = await toCompatEditsForm(call);
  return new Response(body, { headers: { 'content-type': contentType } }).formData();
}

describe('toCompatGenerationsBody', () => {
  it.each(['img-1', 'img-2', 'img-2-pro'])(
    'never sends response_format to %s, whatever the client wants',
    (model) => {
      for (const responseFormat of ['url', 'b64'] as const) {
        expect(generationsBodyOf(callOf({ model, responseFormat }))).not.toHaveProperty('response_format');
      }
    },
  );

  it('never sends response_format to img-* even when a channel maps the model to another id', () => {
    const body = generationsBodyOf(callOf({ model: 'img-2', size: '16:9' }, 'relay-picture-2'));
    expect(body).toEqual({
      model: 'relay-picture-2',
      prompt: 'a lighthouse (aspect ratio 16:9)',
      n: 1,
      size: '1792x1008',
      quality: 'auto',
    });
  });

  it.each([
    ['draw-2', 'url', 'url'],
    ['draw-3', 'b64', 'b64_json'],
    ['zeta-4-2-image', 'b64', 'b64_json'],
    ['relay-image-9', 'url', 'url'],
  ] as const)('asks %s for what the client wants (%s → %s)', (model, responseFormat, wire) => {
    expect(generationsBodyOf(callOf({ model, responseFormat })).response_format).toBe(wire);
  });

  it('sends draw-3 its style and quality, and zeta its Base64 references', () => {
    expect(generationsBodyOf(callOf({ model: 'draw-3', style: 'natural', quality: 'hd' }))).toEqual({
      model: 'draw-3',
      prompt: 'a lighthouse',
      n: 1,
      size: '1024x1024',
      quality: 'hd',
      style: 'natural',
      response_format: 'url',
    });
    const reference = pngInput(32, 32);
    const call = { ...callOf({ model: 'zeta-4-2-image', ratio: '21:9' }), images: [reference] };
    expect(generationsBodyOf(call)).toMatchObject({
      size: '3024x1296',
      image: [reference.kind === 'bytes' ? reference.bytes.toString('base64') : ''],
    });
  });

  it('sends auto as the word auto', () => {
    expect(generationsBodyOf(callOf({ model: 'img-1', size: 'auto' })).size).toBe('auto');
  });
});

describe('toCompatEditsForm', () => {
  it('writes img-* images as repeated image[] files with their types, the mask, and no response_format', async () => {
    const png = pngInput(64, 64);
    const jpeg = jpegInput(64, 64);
    const mask = pngInput(64, 64);
    const form = await formOf(
      callOf({
        model: 'img-1',
        images: [png, jpeg],
        mask,
        n: 2,
        background: 'transparent',
        responseFormat: 'url',
      }),
    );
    expect([...form.keys()]).toEqual([
      'model',
      'prompt',
      'n',
      'quality',
      'background',
      'image[]',
      'image[]',
      'mask',
    ]);
    expect(form.get('n')).toBe('2');
    expect(form.get('quality')).toBe('auto');
    const files = form.getAll('image[]') as File[];
    expect(files.map((file) => [file.name, file.type])).toEqual([
      ['image-1.png', 'image/png'],
      ['image-2.jpg', 'image/jpeg'],
    ]);
    const bytesOf = async (file: File) => Buffer.from(await file.arrayBuffer());
    expect((await bytesOf(files[1])).equals((jpeg as { bytes: Buffer }).bytes)).toBe(true);
    const sentMask = form.get('mask') as File;
    expect(sentMask.name).toBe('mask.png');
    expect((await bytesOf(sentMask)).equals((mask as { bytes: Buffer }).bytes)).toBe(true);
  });

  it('writes one image as image, and asks draw-2 for the format the client wants', async () => {
    const form = await formOf(callOf({ model: 'draw-2', images: [pngInput(64, 64)], responseFormat: 'b64' }));
    expect(form.getAll('image')).toHaveLength(1);
    expect(form.has('image[]')).toBe(false);
    expect(form.get('response_format')).toBe('b64_json');
    expect(form.get('size')).toBe('1024x1024');
  });

  it('refuses to upload a URL (the plan never lets one through)', async () => {
    const call = { ...callOf({ model: 'draw-2', images: [pngInput(64, 64)] }), images: [urlInput()] };
    await expect(toCompatEditsForm(call)).rejects.toThrow('compat edits upload bytes only');
  });
});
