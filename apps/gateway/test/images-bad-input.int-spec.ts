import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { imageHarnessEnv, pngOf, seedImageDemo, type ImageDemo } from './image-demo';

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

describe('image requests refused before anything is charged', () => {
  let harness: GatewayHarness;
  let demo: ImageDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    demo = await seedImageDemo(harness, 1_000_000n);
  });
  afterAll(() => harness.close());

  const authorization = () => ({ authorization: `Bearer ${demo.key}` });

  function generate(body: unknown): Promise<HttpAnswer<OpenAiError>> {
    return harness.request<OpenAiError>('POST', '/v1/images/generations', { body, headers: authorization() });
  }

  function edit(form: FormData): Promise<HttpAnswer<OpenAiError>> {
    return fetchAnswer('/v1/images/edits', { method: 'POST', body: form, headers: authorization() });
  }

  async function fetchAnswer(path: string, init: RequestInit): Promise<HttpAnswer<OpenAiError>> {
    const response = await fetch(`${harness.url}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: JSON.parse(text) as OpenAiError,
      text,
    };
  }

  function editForm(fields: Record<string, string>, files: Array<[string, Buffer, string]>): FormData {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const [name, bytes, type] of files) form.append(name, new Blob([bytes], { type }), `${name}.png`);
    return form;
  }

  function expectOpenAiError(answer: HttpAnswer<OpenAiError>, status: number, param?: string | RegExp) {
    expect(answer.status).toBe(status);
    expect(answer.body.error).toEqual({
      message: expect.any(String),
      type: 'invalid_request_error',
      param:
        param === undefined || typeof param === 'string'
          ? (param ?? expect.anything())
          : expect.stringMatching(param),
      code: expect.any(String),
    });
  }

  it('refuses a generation without model, naming the field', async () => {
    const answer = await generate({ prompt: 'A fox' });
    expectOpenAiError(answer, 400, 'model');
    expect(answer.body.error.message).toMatch(/model/);
  });

  it.each([[-1], [1.5], ['two'], [101]])('refuses n = %p', async (n) => {
    expectOpenAiError(await generate({ model: 'img-1', prompt: 'A fox', n }), 400, 'n');
  });

  it('refuses more images than the family allows', async () => {
    expectOpenAiError(await generate({ model: 'draw-3', prompt: 'A fox', n: 2 }), 400, 'n');
  });

  it('refuses a size the family does not offer, naming the allowed ones', async () => {
    const answer = await generate({ model: 'draw-2', prompt: 'A fox', size: '300x300' });
    expectOpenAiError(answer, 400, 'size');
    expect(answer.body.error.message).toMatch(/256x256, 512x512, 1024x1024/);
  });

  it('refuses an unknown response_format', async () => {
    expectOpenAiError(
      await generate({ model: 'draw-2', prompt: 'A fox', response_format: 'png' }),
      400,
      'response_format',
    );
  });

  it('refuses a reference image that is neither Base64 image data nor a URL', async () => {
    const notAnImage = Buffer.from('plain text, not a picture').toString('base64');
    expectOpenAiError(
      await generate({ model: 'img-2', prompt: 'A fox', image: [notAnImage] }),
      400,
      'image[0]',
    );
  });

  it('refuses a non-image file by its bytes, whatever its declared type', async () => {
    const form = editForm({ model: 'img-1', prompt: 'Edit' }, [
      ['image', Buffer.from('%PDF-1.7 not a png'), 'image/png'],
    ]);
    expectOpenAiError(await edit(form), 400, /image/);
  });

  it('refuses an edit without an image', async () => {
    expectOpenAiError(await edit(editForm({ model: 'img-1', prompt: 'Edit' }, [])), 400, 'image');
  });

  it('refuses a 25 MB upload with 413', async () => {
    const huge = Buffer.concat([pngOf(16, 16), Buffer.alloc(25 * 1024 * 1024)]);
    const answer = await edit(editForm({ model: 'img-1', prompt: 'Edit' }, [['image', huge, 'image/png']]));
    expectOpenAiError(answer, 413, 'image');
  });

  it('refuses a malformed multipart body: no boundary, or cut short', async () => {
    const headers = { ...authorization(), 'content-type': 'multipart/form-data' };
    expectOpenAiError(await fetchAnswer('/v1/images/edits', { method: 'POST', body: 'x', headers }), 400);
    const cutShort = '--b0undary\r\nContent-Disposition: form-data; name="model"\r\n\r\nimg-1';
    const answer = await fetchAnswer('/v1/images/edits', {
      method: 'POST',
      body: cutShort,
      headers: { ...authorization(), 'content-type': 'multipart/form-data; boundary=b0undary' },
    });
    expectOpenAiError(answer, 400, '(body)');
  });

  it('refuses multipart on the JSON route', async () => {
    const form = editForm({ model: 'img-1', prompt: 'A fox' }, []);
    const answer = await fetchAnswer('/v1/images/generations', {
      method: 'POST',
      body: form,
      headers: authorization(),
    });
    expectOpenAiError(answer, 400, 'Content-Type');
  });

  it('charged nothing and held nothing for any of them, and logged the refusals it could attribute', async () => {
    await harness.settled();
    const ledger = await harness.query<{ n: number }>(
      "select count(*)::int as n from ledger_entries where kind <> 'credit'",
    );
    expect(ledger[0].n).toBe(0);
    const holds = await harness.query<{ n: number }>('select count(*)::int as n from holds');
    expect(holds[0].n).toBe(0);
    const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
      'GET',
      `/admin/accounts/${demo.accountId}`,
    );
    expect(account).toMatchObject({ balanceMicros: '1000000', heldMicros: '0' });
    const logs = await harness.query<{ end_reason: string; cost_micros: string }>(
      "select end_reason, cost_micros::text from request_logs where key_id = $1 and route like '/v1/images/%'",
      [demo.keyId],
    );
    expect(logs.length).toBeGreaterThanOrEqual(12);
    expect(logs.every((log) => log.end_reason === 'refused' && log.cost_micros === '0')).toBe(true);
  });
});
