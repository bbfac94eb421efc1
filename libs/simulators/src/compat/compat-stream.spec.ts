import { RunningSimulator, startSimulator } from '../server';
import { parseJson, postJson, sseData } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };
const MESSAGES = [{ role: 'user', content: 'Hello there' }];

interface Chunk {
  id: string;
  object: string;
  choices: Array<{
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: Record<string, unknown> | null;
  error?: Record<string, unknown>;
}

describe('compat chat completions streaming', () => {
  let simulator: RunningSimulator;
  const stream = async (
    body: Record<string, unknown>,
    directives = '',
  ): Promise<{ status: number; text: string; chunks: Chunk[]; data: string[] }> => {
    const result = await postJson(
      `${simulator.url}/v1/chat/completions`,
      { model: 'm', messages: MESSAGES, stream: true, ...body },
      { ...AUTH, 'x-sim': directives },
    );
    const data = sseData(result.text, '\n\n');
    const chunks = data
      .filter((payload) => payload !== '[DONE]')
      .map((payload) => parseJson(payload) as unknown as Chunk);
    return { status: result.status, text: result.text, chunks, data };
  };

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('streams role, content chunks and a finish chunk with LF framing, then [DONE]', async () => {
    const { status, text, chunks, data } = await stream({}, 'chunks=3');
    expect(status).toBe(200);
    expect(text).not.toContain('\r');
    expect(data[data.length - 1]).toBe('[DONE]');
    expect(chunks).toHaveLength(5);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(
      chunks
        .slice(1, 4)
        .map((chunk) => chunk.choices[0].delta.content)
        .join(''),
    ).toBe('Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor.');
    expect(chunks[4].choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('adds the usage chunk with empty choices only when include_usage is true', async () => {
    const { chunks } = await stream({ stream_options: { include_usage: true } }, 'usage=9/3');
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 9,
      completion_tokens: 3,
      total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);

    const without = await stream({ stream_options: { include_usage: false } });
    expect(without.chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
  });

  it('splits a tool call across chunks: id and name first, then the arguments in pieces', async () => {
    const { chunks } = await stream({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' }, days: { type: 'integer' } },
              required: ['city', 'days'],
            },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^call_/),
      function: { name: 'get_weather', arguments: '' },
    });
    expect(calls.slice(1).every((call) => call.id === undefined && call.function.name === undefined)).toBe(
      true,
    );
    expect(JSON.parse(calls.map((call) => call.function.arguments).join(''))).toEqual({
      city: 'sample',
      days: 1,
    });
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('tool_calls');
  });

  it('sends one error event after error_after chunks and closes without [DONE]', async () => {
    const { chunks, data } = await stream({}, 'error=rate_limit;error_after=2');
    expect(data).not.toContain('[DONE]');
    expect(chunks).toHaveLength(4);
    expect(chunks[1].choices[0].delta.content).toBeDefined();
    expect(chunks[3]).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('streams every choice when n > 1', async () => {
    const { chunks } = await stream({ n: 2 }, 'chunks=2');
    const finishes = chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop');
    expect(finishes.map((chunk) => chunk.choices[0].index)).toEqual([0, 1]);
  });
});
