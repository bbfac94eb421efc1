import { RunningSimulator, startSimulator } from '../server';
import { parseJson, postJson } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };
const MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hello there' },
];

interface Completion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: string;
      content: string | null;
      tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    };
    finish_reason: string;
  }>;
  usage: Record<string, unknown>;
}

describe('compat chat completions', () => {
  let simulator: RunningSimulator;
  const chat = (body: unknown, headers: Record<string, string> = AUTH): ReturnType<typeof postJson> =>
    postJson(`${simulator.url}/v1/chat/completions`, body, headers);

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { compat: ['sim-compat-key', 'second-key'] } });
  });
  afterAll(() => simulator.close());

  describe('auth', () => {
    it.each([
      ['missing', {}],
      ['wrong', { authorization: 'Bearer nope-nope-nope' }],
      ['not bearer', { authorization: 'Basic sim-compat-key' }],
    ])('answers a %s key with 401 invalid_api_key', async (_case, headers) => {
      const result = await chat({ model: 'm', messages: MESSAGES }, headers);
      expect(result.status).toBe(401);
      expect(parseJson(result.text)).toEqual({
        error: {
          message: expect.any(String),
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    });

    it('accepts every configured key', async () => {
      expect(
        (await chat({ model: 'm', messages: MESSAGES }, { authorization: 'Bearer second-key' })).status,
      ).toBe(200);
    });
  });

  it('answers in the chat.completion shape with deterministic usage', async () => {
    const result = await chat({ model: 'relay-model-1', messages: MESSAGES });
    expect(result.status).toBe(200);
    const completion = parseJson(result.text) as unknown as Completion;
    const text = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor.';
    expect(completion).toEqual({
      id: expect.stringMatching(/^chatcmpl-[A-Za-z0-9]+$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'relay-model-1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 5, // 'Be brief.' + 'Hello there' = 20 characters
        completion_tokens: Math.ceil(text.length / 4),
        total_tokens: 5 + Math.ceil(text.length / 4),
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
      system_fingerprint: expect.any(String),
    });
    expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(5);
  });

  it('gives n choices and counts image parts in the prompt', async () => {
    const result = await chat({
      model: 'vision-1',
      n: 2,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    const completion = parseJson(result.text) as unknown as Completion;
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(completion.usage['prompt_tokens']).toBe(4 + 85);
  });

  it('caps the output at max_completion_tokens with finish_reason length', async () => {
    const result = await chat({ model: 'm', messages: MESSAGES, max_completion_tokens: 3 });
    const completion = parseJson(result.text) as unknown as Completion;
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.choices[0].message.content).toBe('Lorem ipsum ');
    expect(completion.usage['completion_tokens']).toBe(3);
  });

  it('answers tool_calls with a sample of the declared arguments when tool_choice is required', async () => {
    const result = await chat({
      model: 'm',
      messages: MESSAGES,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      tool_choice: 'required',
    });
    const completion = parseJson(result.text) as unknown as Completion;
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.content).toBeNull();
    expect(completion.choices[0].message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"sample"}' },
      },
    ]);
  });

  it('calls a function named by tool_choice, or the one scripted with tool=', async () => {
    const tools = [
      { type: 'function', function: { name: 'first', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'second', parameters: { type: 'object', properties: {} } } },
    ];
    const named = await chat({
      model: 'm',
      messages: MESSAGES,
      tools,
      tool_choice: { type: 'function', function: { name: 'second' } },
    });
    expect(
      (parseJson(named.text) as unknown as Completion).choices[0].message.tool_calls?.[0].function.name,
    ).toBe('second');
    const auto = await chat({ model: 'm', messages: MESSAGES, tools, tool_choice: 'auto' });
    expect((parseJson(auto.text) as unknown as Completion).choices[0].message.tool_calls).toBeUndefined();
    const scripted = await chat({
      model: 'm',
      messages: [{ role: 'user', content: 'go [[sim tool=first]]' }],
      tools,
    });
    expect((parseJson(scripted.text) as unknown as Completion).choices[0].finish_reason).toBe('tool_calls');
  });

  describe('validation', () => {
    it.each([
      ['model', { messages: MESSAGES }],
      ['messages', { model: 'm' }],
    ])('answers a missing %s with 400 invalid_request_error naming the param', async (param, body) => {
      const result = await chat(body);
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toEqual({
        error: expect.objectContaining({ type: 'invalid_request_error', param }),
      });
    });

    it('answers a model id starting with unknown- with 404 model_not_found', async () => {
      const result = await chat({ model: 'unknown-model', messages: MESSAGES });
      expect(result.status).toBe(404);
      expect(parseJson(result.text)).toMatchObject({ error: { code: 'model_not_found' } });
    });

    it('answers invalid JSON with 400', async () => {
      expect((await chat('{"model":')).status).toBe(400);
    });
  });
});
