import { startSimulator } from '../server';
import { RunningSimulator } from '../server';
import { parseJson, postJson } from '../testing/simulator-client.util';

const KEY = { 'x-vendor-api-key': 'sim-kappa-key' };

describe('kappa generateContent', () => {
  let simulator: RunningSimulator;
  const generateUrl = (model: string, version = 'v1beta'): string =>
    `${simulator.url}/${version}/models/${model}:generateContent`;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  describe('auth', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

    it('answers a missing key with 403 PERMISSION_DENIED', async () => {
      const result = await postJson(generateUrl('kappa-2.0-flash'), body);
      expect(result.status).toBe(403);
      expect(parseJson(result.text)).toEqual({
        error: expect.objectContaining({
          code: 403,
          status: 'PERMISSION_DENIED',
          message: expect.any(String),
        }),
      });
    });

    it('answers a wrong key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID', async () => {
      const result = await postJson(generateUrl('kappa-2.0-flash'), body, { 'x-vendor-api-key': 'nope' });
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toEqual({
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'kappa' }],
        },
      });
    });

    it('accepts the key as ?key= on /v1 as well', async () => {
      const result = await postJson(`${generateUrl('kappa-2.0-flash', 'v1')}?key=sim-kappa-key`, body);
      expect(result.status).toBe(200);
    });
  });

  it('answers text with deterministic usage, reading snake_case input', async () => {
    const result = await postJson(
      generateUrl('kappa-2.0-flash'),
      {
        system_instruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Describe this.' },
              { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
        generation_config: { temperature: 0.2 },
      },
      KEY,
    );
    expect(result.status).toBe(200);
    const response = parseJson(result.text);
    const text = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor.';
    // 'Be brief.' + 'Describe this.' = 23 characters → 6 text tokens; one image part → 258.
    expect(response).toEqual({
      candidates: [
        {
          content: { parts: [{ text }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
          safetyRatings: expect.arrayContaining([
            { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
          ]),
        },
      ],
      usageMetadata: {
        promptTokenCount: 264,
        candidatesTokenCount: Math.ceil(text.length / 4),
        totalTokenCount: 264 + Math.ceil(text.length / 4),
        promptTokensDetails: [
          { modality: 'TEXT', tokenCount: 6 },
          { modality: 'IMAGE', tokenCount: 258 },
        ],
        candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: Math.ceil(text.length / 4) }],
      },
      modelVersion: 'kappa-2.0-flash',
      responseId: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
    });
  });

  it('honours scripted text, usage, thoughts and finish from the prompt marker', async () => {
    const result = await postJson(
      generateUrl('kappa-2.0-flash'),
      {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'Go [[sim text=Hi%20there;usage=10/20;thoughts=5;finish=OTHER]]' }],
          },
        ],
        generationConfig: { thinkingConfig: { includeThoughts: true } },
      },
      KEY,
    );
    const response = parseJson(result.text) as {
      candidates: Array<{ content: { parts: Array<Record<string, unknown>> }; finishReason: string }>;
      usageMetadata: Record<string, unknown>;
    };
    expect(response.candidates[0].content.parts).toEqual([
      { text: expect.any(String), thought: true },
      { text: 'Hi there' },
    ]);
    expect(response.candidates[0].finishReason).toBe('OTHER');
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 10,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 5,
      totalTokenCount: 35,
    });
  });

  it('caps output at maxOutputTokens with finishReason MAX_TOKENS', async () => {
    const result = await postJson(
      generateUrl('kappa-2.0-flash'),
      { contents: [{ parts: [{ text: 'Hi' }] }], generationConfig: { maxOutputTokens: 2 } },
      KEY,
    );
    const response = parseJson(result.text) as {
      candidates: Array<{ content: { parts: Array<{ text: string }> }; finishReason: string }>;
      usageMetadata: { candidatesTokenCount: number };
    };
    expect(response.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(response.candidates[0].content.parts[0].text).toBe('Lorem ip');
    expect(response.usageMetadata.candidatesTokenCount).toBe(2);
  });

  describe('image models', () => {
    const imageRequest = (generationConfig: Record<string, unknown>): Record<string, unknown> => ({
      contents: [{ role: 'user', parts: [{ text: 'A grey square' }] }],
      generationConfig,
    });

    const imagePartOf = (text: string): { mimeType: string; data: string } => {
      const response = parseJson(text) as {
        candidates: Array<{ content: { parts: Array<{ inlineData?: { mimeType: string; data: string } }> } }>;
      };
      const part = response.candidates[0].content.parts.find((candidate) => candidate.inlineData);
      if (!part?.inlineData) throw new Error('no image part');
      return part.inlineData;
    };

    const pngSize = (base64: string): [number, number] => {
      const png = Buffer.from(base64, 'base64');
      return [png.readUInt32BE(16), png.readUInt32BE(20)];
    };

    it('returns text and an inline PNG with the fixed 1290 image tokens', async () => {
      const result = await postJson(
        generateUrl('kappa-2.5-flash-image-preview'),
        imageRequest({
          responseModalities: ['TEXT', 'IMAGE'],
          imageConfig: { aspectRatio: '16:9', imageSize: '4K' },
        }),
        KEY,
      );
      expect(result.status).toBe(200);
      const image = imagePartOf(result.text);
      expect(image.mimeType).toBe('image/png');
      expect(pngSize(image.data)).toEqual([1344, 768]);
      const usage = (parseJson(result.text) as { usageMetadata: Record<string, unknown> }).usageMetadata;
      expect(usage['candidatesTokensDetails']).toEqual([
        { modality: 'TEXT', tokenCount: expect.any(Number) },
        { modality: 'IMAGE', tokenCount: 1290 },
      ]);
    });

    it('honours imageSize on the pro model: 2K doubles the sides, 4K costs 2000 tokens', async () => {
      const twoK = await postJson(
        generateUrl('kappa-3-pro-image-preview'),
        imageRequest({ responseModalities: ['IMAGE'], imageConfig: { imageSize: '2K' } }),
        KEY,
      );
      expect(pngSize(imagePartOf(twoK.text).data)).toEqual([2048, 2048]);
      const twoKResponse = parseJson(twoK.text) as {
        candidates: Array<{ content: { parts: unknown[] } }>;
        usageMetadata: { candidatesTokenCount: number };
      };
      expect(twoKResponse.candidates[0].content.parts).toHaveLength(1);
      expect(twoKResponse.usageMetadata.candidatesTokenCount).toBe(1120);

      const fourK = await postJson(
        generateUrl('kappa-3-pro-image-preview'),
        imageRequest({ responseModalities: ['IMAGE'], imageConfig: { imageSize: '4K' } }),
        KEY,
      );
      expect(
        (parseJson(fourK.text) as { usageMetadata: { candidatesTokenCount: number } }).usageMetadata,
      ).toEqual(expect.objectContaining({ candidatesTokenCount: 2000 }));
    });

    it('rejects a lower-case image size with INVALID_ARGUMENT', async () => {
      const result = await postJson(
        generateUrl('kappa-3.1-flash-image-preview'),
        imageRequest({ responseModalities: ['IMAGE'], imageConfig: { imageSize: '2k' } }),
        KEY,
      );
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    });

    it('answers text only when IMAGE is not among the response modalities', async () => {
      const result = await postJson(generateUrl('kappa-2.5-flash-image-preview'), imageRequest({}), KEY);
      expect(result.text).not.toContain('inlineData');
    });
  });

  describe('function calling', () => {
    const tools = [
      {
        functionDeclarations: [
          { name: 'get_time', parameters: { type: 'OBJECT', properties: {} } },
          {
            name: 'get_weather',
            parameters: {
              type: 'OBJECT',
              properties: {
                city: { type: 'STRING' },
                days: { type: 'INTEGER' },
                hourly: { type: 'BOOLEAN' },
              },
              required: ['city', 'days', 'hourly'],
            },
          },
        ],
      },
    ];
    const contents = [{ role: 'user', parts: [{ text: 'Weather?' }] }];

    it('calls the first allowed function with mode ANY, with arguments from its schema', async () => {
      const result = await postJson(
        generateUrl('kappa-2.0-flash'),
        {
          contents,
          tools,
          tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['get_weather'] } },
        },
        KEY,
      );
      const response = parseJson(result.text) as {
        candidates: Array<{ content: { parts: unknown[] }; finishReason: string }>;
      };
      expect(response.candidates[0].content.parts).toEqual([
        { functionCall: { name: 'get_weather', args: { city: 'sample', days: 1, hourly: true } } },
      ]);
      expect(response.candidates[0].finishReason).toBe('STOP');
    });

    it('answers text in mode AUTO, and calls the scripted tool when told to', async () => {
      const auto = await postJson(
        generateUrl('kappa-2.0-flash'),
        { contents, tools, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } },
        KEY,
      );
      expect(auto.text).not.toContain('functionCall');
      const scripted = await postJson(
        generateUrl('kappa-2.0-flash'),
        { contents, tools },
        { ...KEY, 'x-sim': 'tool=get_time' },
      );
      expect(scripted.text).toContain('"functionCall":{"name":"get_time","args":{}}');
    });
  });

  describe('validation', () => {
    it('answers missing or empty contents with 400 INVALID_ARGUMENT', async () => {
      for (const body of [{}, { contents: [] }]) {
        const result = await postJson(generateUrl('kappa-2.0-flash'), body, KEY);
        expect(result.status).toBe(400);
        expect(parseJson(result.text)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      }
    });

    it('answers an unknown model with 404 NOT_FOUND', async () => {
      const result = await postJson(
        generateUrl('other-model'),
        { contents: [{ parts: [{ text: 'x' }] }] },
        KEY,
      );
      expect(result.status).toBe(404);
      expect(parseJson(result.text)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    });

    it('serves any kappa-* model id', async () => {
      const result = await postJson(
        generateUrl('kappa-9-experimental'),
        { contents: [{ parts: [{ text: 'x' }] }] },
        KEY,
      );
      expect(result.status).toBe(200);
      expect(parseJson(result.text)).toMatchObject({ modelVersion: 'kappa-9-experimental' });
    });

    it('answers invalid JSON with 400 INVALID_ARGUMENT', async () => {
      const result = await postJson(generateUrl('kappa-2.0-flash'), '{"contents":', KEY);
      expect(result.status).toBe(400);
    });
  });
});
