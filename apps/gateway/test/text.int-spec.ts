import OpenAI from 'openai';
import { GatewayHarness, type TextDemo } from './gateway-harness';
import { generate, streamGenerate, textOf } from './native-wire.client';

interface JournalEntry {
  path: string;
  body: string;
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('text generation end to end', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  let client: OpenAI;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: demo.key, maxRetries: 0 });
  });
  afterAll(() => harness.close());

  const lastJournal = async (): Promise<JournalEntry> => {
    const entries = (await (
      await fetch(`${harness.simulatorUrl}/__sim/requests?limit=1`)
    ).json()) as JournalEntry[];
    return entries[entries.length - 1];
  };

  describe.each([
    ['kappa', 'kappa-2.0-flash'],
    ['compat', 'chat-fast'],
  ])('the native routes against a %s channel', (_type, model) => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'Say hello [[sim text=Hello%20there%20friend]]' }] }],
    };

    it('generateContent answers in the native shape with usage', async () => {
      const answer = await generate(harness.url, demo.key, model, body);
      expect(answer.status).toBe(200);
      const candidates = answer.json['candidates'] as {
        content: { role: string; parts: { text: string }[] };
        finishReason: string;
      }[];
      expect(candidates[0].content.role).toBe('model');
      expect(candidates[0].content.parts.map((part) => part.text).join('')).toBe('Hello there friend');
      expect(candidates[0].finishReason).toBe('STOP');
      const usage = answer.json['usageMetadata'] as Record<string, number>;
      expect(usage['promptTokenCount']).toBeGreaterThan(0);
      expect(usage['totalTokenCount']).toBe(usage['promptTokenCount'] + usage['candidatesTokenCount']);
    });

    it.each([
      ['SSE', true],
      ['the JSON array', false],
    ])(
      'streamGenerateContent as %s delivers the text in several chunks with cumulative usage',
      async (_name, sse) => {
        const stream = await streamGenerate(harness.url, demo.key, model, body, sse);
        expect(stream.status).toBe(200);
        expect(stream.contentType).toMatch(sse ? /text\/event-stream/ : /application\/json/);
        if (sse) expect(stream.raw).toMatch(/^data: \{.*\}\r\n\r\n/);
        else expect(() => JSON.parse(stream.raw)).not.toThrow();
        expect(stream.chunks.length).toBeGreaterThanOrEqual(2);
        expect(textOf(stream.chunks)).toBe('Hello there friend');
        const last = stream.chunks[stream.chunks.length - 1].json;
        expect((last['usageMetadata'] as Record<string, number>)['candidatesTokenCount']).toBeGreaterThan(0);
      },
    );
  });

  it('forwards the client bytes untouched to a kappa channel, unknown fields included', async () => {
    const raw = '{"contents":[{"role":"user","parts":[{"text":"hi"}]}],  "futureField":{"x":1}}';
    const answer = await harness.request('POST', '/v1beta/models/kappa-2.0-flash:generateContent', {
      rawBody: raw,
      headers: { 'x-vendor-api-key': demo.key, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect((await lastJournal()).body).toBe(raw);
  });

  it('translates a native request for a compat channel, refusing fields with no equivalent by name', async () => {
    const answer = await harness.request<{ error: { message: string } }>(
      'POST',
      '/v1beta/models/chat-fast:generateContent',
      {
        body: { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { topK: 3 } },
        headers: { 'x-vendor-api-key': demo.key },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/generationConfig\.topK/);
    const sent = await generate(harness.url, demo.key, 'chat-fast', {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { temperature: 0.2, maxOutputTokens: 50, stopSequences: ['END'], candidateCount: 2 },
    });
    expect(sent.status).toBe(200);
    expect((sent.json['candidates'] as unknown[]).length).toBe(2);
    const upstreamBody = JSON.parse((await lastJournal()).body) as Record<string, unknown>;
    expect(upstreamBody).toMatchObject({
      model: 'chat-fast',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.2,
      max_tokens: 50,
      stop: ['END'],
      n: 2,
    });
  });

  it('streams without buffering: the first chunk arrives before the upstream sends the second', async () => {
    const body = { contents: [{ parts: [{ text: 'pace me [[sim chunks=3;interval=400]]' }] }] };
    const startedAt = Date.now();
    const stream = await streamGenerate(harness.url, demo.key, 'kappa-2.0-flash', body, true);
    expect(stream.chunks).toHaveLength(3);
    const [first, second, third] = stream.chunks.map((chunk) => chunk.receivedAtMs);
    // The simulator sends chunk n at about n × 400 ms: the first must be in hand well before the second
    // exists (a gateway one chunk behind would hand it over at 400 ms). The margin is for a loaded machine.
    expect(first - startedAt).toBeLessThan(300);
    expect(second - first).toBeGreaterThanOrEqual(300);
    expect(third - second).toBeGreaterThanOrEqual(300);
  });

  describe.each([
    ['kappa', 'kappa-2.0-flash'],
    ['compat', 'chat-fast'],
  ])('the official OpenAI SDK against a %s channel', (_type, model) => {
    it('lists models', async () => {
      const models = await client.models.list();
      expect(models.data.map((entry) => entry.id)).toEqual(
        expect.arrayContaining(['kappa-2.0-flash', 'chat-fast', 'kappa-3-pro-image-preview']),
      );
    });

    it('creates a completion with text and usage', async () => {
      const completion = await client.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Greet me [[sim text=Hi%20you]]' },
        ],
      });
      expect(completion.model).toBe(model);
      expect(completion.choices[0].message.content).toBe('Hi you');
      expect(completion.choices[0].finish_reason).toBe('stop');
      expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
      expect(completion.usage?.total_tokens).toBe(
        (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
      );
    });

    it('streams a completion with the usage chunk when asked', async () => {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Stream [[sim text=one%20two%20three;chunks=3]]' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('one two three');
      expect(finish).toBe('stop');
      expect(usage?.completion_tokens).toBeGreaterThan(0);
    });

    it('streams without a usage chunk when not asked', async () => {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Stream [[sim chunks=2]]' }],
        stream: true,
      });
      const usages: unknown[] = [];
      for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
      expect(usages).toEqual([]);
    });

    it('returns tool calls, whole and streamed', async () => {
      const request = {
        model,
        messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
        tools: [WEATHER_TOOL],
        tool_choice: 'required' as const,
      };
      const completion = await client.chat.completions.create(request);
      const call = completion.choices[0].message.tool_calls?.[0];
      expect(call?.type).toBe('function');
      expect(call && 'function' in call ? call.function.name : undefined).toBe('get_weather');
      expect(JSON.parse(call && 'function' in call ? call.function.arguments : '{}')).toEqual({
        city: 'sample',
      });
      expect(completion.choices[0].finish_reason).toBe('tool_calls');

      const stream = client.chat.completions.stream({ ...request, stream: true });
      const final = await stream.finalChatCompletion();
      const streamedCall = final.choices[0].message.tool_calls?.[0];
      expect(streamedCall && 'function' in streamedCall ? streamedCall.function.name : undefined).toBe(
        'get_weather',
      );
      expect(
        JSON.parse(streamedCall && 'function' in streamedCall ? streamedCall.function.arguments : '{}'),
      ).toEqual({
        city: 'sample',
      });
    });

    it('sends a tool result back and gets the answer', async () => {
      const completion = await client.chat.completions.create({
        model,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_0',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":21}' },
        ],
        tools: [WEATHER_TOOL],
      });
      expect(completion.choices[0].message.content).toBeTruthy();
    });
  });

  it('maps upstream errors to the SDK error classes', async () => {
    await expect(
      client.chat.completions.create({
        model: 'chat-fast',
        messages: [{ role: 'user', content: 'x [[sim error=content_policy]]' }],
      }),
    ).rejects.toMatchObject({ status: 400, code: 'content_policy_violation' });
    await expect(
      client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('ends a stream that fails after its first chunk with an error event in the client dialect', async () => {
    const body = { contents: [{ parts: [{ text: 'x [[sim chunks=4;error_after=1;error=overload]]' }] }] };
    const stream = await streamGenerate(harness.url, demo.key, 'kappa-2.0-flash', body, true);
    expect(stream.status).toBe(200);
    const last = stream.chunks[stream.chunks.length - 1].json;
    expect(last).toEqual({ error: { code: 503, message: expect.any(String), status: 'UNAVAILABLE' } });
    expect(textOf(stream.chunks.slice(0, -1))).not.toBe('');
  });
});
