import OpenAI from 'openai';
import { RunningSimulator, startSimulator } from '../server';

/** The published OpenAI-style client must read the simulated wire without complaint. */
describe('compat chat completions through a real OpenAI-style client', () => {
  let simulator: RunningSimulator;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startSimulator();
    client = new OpenAI({ apiKey: 'sim-compat-key', baseURL: `${simulator.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('reads a completion', async () => {
    const completion = await client.chat.completions.create({
      model: 'relay-1',
      messages: [{ role: 'user', content: 'Hi [[sim text=Hello%20client]]' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello client');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('assembles a streamed tool call and the usage chunk', async () => {
    const stream = client.chat.completions.stream({
      model: 'relay-1',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream_options: { include_usage: true },
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
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({
      name: 'get_weather',
      arguments: '{"city":"sample"}',
    });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.usage?.prompt_tokens).toBe(2);
  });

  it('surfaces scripted errors with their status, code and Retry-After', async () => {
    const failure = await client.chat.completions
      .create(
        { model: 'relay-1', messages: [{ role: 'user', content: 'x' }] },
        { headers: { 'x-sim': 'error=rate_limit;retry_after=3' } },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = failure as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.code).toBe('rate_limit_exceeded');
    expect(rateLimit.headers?.get('retry-after')).toBe('3');
  });

  it('surfaces a mid-stream error event as an error of the stream', async () => {
    const stream = await client.chat.completions.create(
      { model: 'relay-1', messages: [{ role: 'user', content: 'x' }], stream: true },
      { headers: { 'x-sim': 'error=overload;error_after=1' } },
    );
    const received: string[] = [];
    const consume = async (): Promise<void> => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta?.content ?? '');
    };
    await expect(consume()).rejects.toThrow();
    expect(received.join('')).toBe('Lorem ipsum dolor sit');
  });
});
