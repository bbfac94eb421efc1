import OpenAI from 'openai';
import { GatewayHarness, type TextDemo } from './gateway-harness';
import { seedVideoDemo, type VideoDemo } from './video-demo';

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

/** What Node's HTTP parser (undici's fetch included) accepts for the whole response head. */
const CLIENT_HEAD_LIMIT_BYTES = 8 * 1024;

/** The response head as Node's parser counts it: each header line and the status line. */
function headBytes(headers: Headers): number {
  let total = 'HTTP/1.1 200 OK\r\n'.length;
  headers.forEach((value, name) => {
    total += name.length + value.length + 4;
  });
  return total;
}

/** A multipart body written by hand, so that a part's field name can be as long as the test wants. */
function multipart(parts: Array<{ name: string; value: string }>) {
  const boundary = 'response-heads-boundary';
  const text = parts
    .map(
      (part) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
    )
    .join('');
  return {
    body: Buffer.from(`${text}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * Whatever a client sends, the head the gateway answers with stays within what common clients parse:
 * a response they cannot read is a billable task they never heard of.
 */
describe('response heads stay readable, whatever the client sent', () => {
  let harness: GatewayHarness;
  let text: TextDemo;
  let video: VideoDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    text = await harness.seedTextDemo();
    video = await seedVideoDemo(harness);
  });
  afterAll(() => harness.close());

  const longName = 'x'.repeat(20 * 1024);

  describe('x-gateway-warning', () => {
    it('names a 20 KB unknown field of a video create briefly, and the task is readable', async () => {
      const created = await harness.request<{ id: string; status: string }>('POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'A kite', [longName]: 1, [`${longName}y`]: 2 },
        headers: { authorization: `Bearer ${video.key}` },
      });
      expect(created.status).toBe(200);
      expect(created.body.id).toMatch(/^video_/);
      const warning = created.headers.get('x-gateway-warning') ?? '';
      expect(warning).toMatch(/^x{61}\.\.\. (is ignored|was not sent)/);
      expect(warning.length).toBeLessThanOrEqual(1024);
      expect(headBytes(created.headers)).toBeLessThan(CLIENT_HEAD_LIMIT_BYTES);
    });

    it('keeps the header within 1 KiB and counts the warnings it leaves out', async () => {
      // Within the route's cap on fields it does not name; the warnings they raise are over 2 KiB.
      const fields = Object.fromEntries(
        Array.from({ length: 30 }, (_, index) => [`extra_${index}_`.padEnd(48, 'x'), index]),
      );
      const created = await harness.request('POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'A kite', ...fields },
        headers: { authorization: `Bearer ${video.key}` },
      });
      expect(created.status).toBe(200);
      const warning = created.headers.get('x-gateway-warning') ?? '';
      expect(warning.length).toBeLessThanOrEqual(1024);
      expect(warning).toMatch(/^extra_0_x+ (is ignored|was not sent)/);
      expect(warning).toMatch(/ \| and \d+ more$/);
    });

    it('names a long multipart field name of a video create briefly', async () => {
      const form = multipart([
        { name: 'model', value: 'delta-2' },
        { name: 'prompt', value: 'A kite' },
        { name: 'z'.repeat(5000), value: '1' },
      ]);
      const created = await harness.request('POST', '/v1/videos', {
        rawBody: form.body,
        headers: { authorization: `Bearer ${video.key}`, 'content-type': form.contentType },
      });
      expect(created.status).toBe(200);
      expect(created.headers.get('x-gateway-warning')).toMatch(/^z{61}\.\.\. (is ignored|was not sent)/);
    });

    it('answers a chat request with a 20 KB unknown field, and a long schema keyword briefly', async () => {
      const answer = await harness.request<{ choices: unknown[] }>('POST', '/v1/chat/completions', {
        body: {
          model: 'kappa-2.0-flash',
          messages: [{ role: 'user', content: 'Hello' }],
          [longName]: true,
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'answer', schema: { type: 'object', [longName]: true } },
          },
        },
        headers: { authorization: `Bearer ${text.key}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.choices).toHaveLength(1);
      const warning = answer.headers.get('x-gateway-warning') ?? '';
      expect(warning).toMatch(/dropped schema keywords .*: x{61}\.\.\./);
      expect(warning.length).toBeLessThanOrEqual(1024);
      expect(headBytes(answer.headers)).toBeLessThan(CLIENT_HEAD_LIMIT_BYTES);
    });
  });

  describe('a JSON content type with no body', () => {
    it('is no body on a route that takes none: GET and DELETE answer as without the header', async () => {
      const created = await harness.request<{ id: string }>('POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'To delete' },
        headers: { authorization: `Bearer ${video.key}` },
      });
      const headers = { authorization: `Bearer ${video.key}`, 'content-type': 'application/json' };
      const read = await harness.request<{ id: string }>('GET', `/v1/videos/${created.body.id}`, { headers });
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(created.body.id);
      const deleted = await harness.request<{ id: string }>('DELETE', `/v1/videos/${created.body.id}`, {
        headers,
      });
      expect(deleted.status).toBe(200);
      expect(deleted.body.id).toBe(created.body.id);
      const again = await harness.request<{ id: string }>('DELETE', `/v1/videos/${created.body.id}`, {
        headers: { ...headers, 'content-type': 'text/plain' },
      });
      expect(again.status).toBe(200);
    });

    it('is still refused on a route that needs a body, naming the problem', async () => {
      const answer = await harness.request<OpenAiError>('POST', '/v1/videos', {
        rawBody: '',
        headers: { authorization: `Bearer ${video.key}`, 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: '(body)' });
      expect(answer.body.error.message).toMatch(/body is empty/);
    });
  });

  describe('GET /v1/models/{model} (the SDK’s models.retrieve)', () => {
    const client = () => new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: text.key, maxRetries: 0 });

    it('answers the model object for a model the key may use', async () => {
      await expect(client().models.retrieve('chat-fast')).resolves.toEqual({
        id: 'chat-fast',
        object: 'model',
        created: 0,
        owned_by: 'gateway',
      });
    });

    it('answers 404 model_not_found in the OpenAI dialect otherwise', async () => {
      const refusal = client().models.retrieve('no-such-model');
      await expect(refusal).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await expect(refusal).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
      const restricted = await harness.createKey(text.accountId, { allowedModels: ['kappa-2.0-flash'] });
      const hidden = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: restricted.key, maxRetries: 0 });
      await expect(hidden.models.retrieve('chat-fast')).rejects.toMatchObject({ status: 404 });
    });
  });
});
