import OpenAI from 'openai';
import { GatewayHarness, type TextDemo } from './gateway-harness';
import { generate } from './native-wire.client';

interface JournalEntry {
  path: string;
  body: string;
}

const PIXEL = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

describe('kappa image models and content policy outcomes', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  const lastUpstreamBody = async () => {
    const entries = (await (
      await fetch(`${harness.simulatorUrl}/__sim/requests?limit=1`)
    ).json()) as JournalEntry[];
    return JSON.parse(entries[entries.length - 1].body) as {
      generationConfig?: { imageConfig?: { imageSize?: string } };
    };
  };

  const imageRequest = (imageSize: string) => ({
    contents: [
      {
        role: 'user',
        parts: [
          { text: 'Blend these two pictures' },
          { inlineData: { mimeType: 'image/png', data: PIXEL } },
          { inlineData: { mimeType: 'image/png', data: PIXEL } },
        ],
      },
    ],
    generationConfig: {
      responseModalities: ['TEXT', 'IMAGE'],
      imageConfig: { aspectRatio: '16:9', imageSize },
    },
  });

  it('returns image output as inlineData for several input images, honouring 2K on the pro model', async () => {
    const answer = await generate(harness.url, demo.key, 'kappa-3-pro-image-preview', imageRequest('2K'));
    expect(answer.status).toBe(200);
    const parts = (answer.json['candidates'] as { content: { parts: Record<string, unknown>[] } }[])[0]
      .content.parts;
    const image = parts.find((part) => part['inlineData']) as {
      inlineData: { mimeType: string; data: string };
    };
    expect(image.inlineData.mimeType).toBe('image/png');
    expect(Buffer.from(image.inlineData.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((await lastUpstreamBody()).generationConfig?.imageConfig?.imageSize).toBe('2K');
  });

  it('refuses a size tier beyond 2K on the pro model, naming the field', async () => {
    const answer = await generate(harness.url, demo.key, 'kappa-3-pro-image-preview', imageRequest('4K'));
    expect(answer.status).toBe(400);
    expect((answer.json['error'] as { message: string }).message).toMatch(
      /generationConfig\.imageConfig\.imageSize/,
    );
  });

  it('falls back to 1K on the flash image model', async () => {
    const answer = await generate(harness.url, demo.key, 'kappa-2.5-flash-image-preview', imageRequest('2K'));
    expect(answer.status).toBe(200);
    expect((await lastUpstreamBody()).generationConfig?.imageConfig?.imageSize).toBe('1K');
  });

  it('passes a blocked prompt through in the native shape and bills only the prompt', async () => {
    const answer = await generate(harness.url, demo.key, 'kappa-2.0-flash', {
      contents: [{ parts: [{ text: 'something [[sim block=prompt]]' }] }],
    });
    expect(answer.status).toBe(200);
    expect(answer.json['promptFeedback']).toMatchObject({ blockReason: 'SAFETY' });
    expect(answer.json['candidates'] ?? []).toEqual([]);
    await harness.settled();
    const logs = await harness.adminOk<{
      items: { endReason: string; outputTokens: number; model: string }[];
    }>('GET', '/admin/logs?endReason=prompt_blocked');
    expect(logs.items).toHaveLength(1);
    expect(logs.items[0].outputTokens).toBe(0);
  });

  it('shows a blocked prompt to OpenAI-style clients as finish_reason content_filter', async () => {
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: demo.key, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'kappa-2.0-flash',
      messages: [{ role: 'user', content: 'something [[sim block=prompt]]' }],
    });
    expect(completion.choices[0].finish_reason).toBe('content_filter');
  });
});
