import { nativeImageResponse, nativeTextStream } from '../__fixtures__/wire-examples.fixture';
import type { NativeGenerateResponse } from '../native/native-response.types';
import type { OpenAiChatChunk, OpenAiChunkChoice } from '../openai/openai-chat.types';
import { createNativeToOpenAiChatStreamTranslator } from './native-to-openai-chat.stream';

const identity = {
  id: 'chatcmpl-gw1',
  object: 'chat.completion.chunk',
  created: 1735689600,
  model: 'kappa-2.0-flash',
};

function translateStream(
  chunks: NativeGenerateResponse[],
  includeUsage: boolean,
): { perPush: OpenAiChatChunk[][]; atFinish: OpenAiChatChunk[] } {
  const translator = createNativeToOpenAiChatStreamTranslator({
    model: identity.model,
    id: identity.id,
    created: identity.created,
    includeUsage,
  });
  const perPush = chunks.map((chunk) => translator.push(chunk));
  return { perPush, atFinish: translator.finish() };
}

function chunkOf(choice: OpenAiChunkChoice): OpenAiChatChunk {
  return { ...identity, object: 'chat.completion.chunk', choices: [choice] };
}

describe('createNativeToOpenAiChatStreamTranslator', () => {
  it('translates a text stream: role first, text at once, thoughts left out, finish and usage at the end', () => {
    const { perPush, atFinish } = translateStream(nativeTextStream, true);
    expect(perPush).toEqual([
      [chunkOf({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null })],
      [chunkOf({ index: 0, delta: { content: 'Hel' }, finish_reason: null })],
      [chunkOf({ index: 0, delta: { content: 'lo there.' }, finish_reason: null })],
    ]);
    expect(atFinish).toEqual([
      chunkOf({ index: 0, delta: {}, finish_reason: 'stop' }),
      {
        ...identity,
        choices: [],
        usage: {
          prompt_tokens: 9,
          completion_tokens: 7,
          total_tokens: 16,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      },
    ]);
  });

  it('sends no usage chunk when include_usage is false', () => {
    const { atFinish } = translateStream(nativeTextStream, false);
    expect(atFinish).toEqual([chunkOf({ index: 0, delta: {}, finish_reason: 'stop' })]);
  });

  it('reports the last cumulative usage, not a sum', () => {
    const { atFinish } = translateStream(nativeTextStream, true);
    expect(atFinish[1].usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 7 });
  });

  it('sends function calls whole as tool_calls deltas and finishes with tool_calls', () => {
    const { perPush, atFinish } = translateStream(
      [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'Checking.' }] }, index: 0 }],
          modelVersion: 'kappa-2.0-flash',
        },
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
                  { functionCall: { name: 'get_time', args: {} } },
                ],
              },
              index: 0,
            },
          ],
        },
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_news' } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
        },
      ],
      false,
    );
    expect(perPush).toEqual([
      [chunkOf({ index: 0, delta: { role: 'assistant', content: 'Checking.' }, finish_reason: null })],
      [
        chunkOf({
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_0',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              { index: 1, id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
          finish_reason: null,
        }),
      ],
      [
        chunkOf({
          index: 0,
          delta: {
            tool_calls: [
              { index: 2, id: 'call_2', type: 'function', function: { name: 'get_news', arguments: '{}' } },
            ],
          },
          finish_reason: null,
        }),
      ],
    ]);
    expect(atFinish).toEqual([chunkOf({ index: 0, delta: {}, finish_reason: 'tool_calls' })]);
  });

  it('sends the finish reason only at the end, though the native stream repeats it earlier', () => {
    const { perPush, atFinish } = translateStream(
      [
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'A' }] }, finishReason: 'STOP', index: 0 },
          ],
        },
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'MAX_TOKENS', index: 0 },
          ],
        },
      ],
      false,
    );
    expect(perPush.flat().every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
    expect(atFinish).toEqual([chunkOf({ index: 0, delta: {}, finish_reason: 'length' })]);
  });

  it('skips chunks that carry nothing new', () => {
    const { perPush } = translateStream(
      [
        { candidates: [{ content: { role: 'model', parts: [{ text: 'A' }] }, index: 0 }] },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'hidden', thought: true }] }, index: 0 }],
        },
        { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } },
      ],
      true,
    );
    expect(perPush.map((chunks) => chunks.length)).toEqual([1, 0, 0]);
  });

  it('answers a blocked prompt with one filtered, empty choice and the usage', () => {
    const { perPush, atFinish } = translateStream(
      [
        {
          promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
          usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
        },
      ],
      true,
    );
    expect(perPush).toEqual([[]]);
    expect(atFinish).toEqual([
      chunkOf({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }),
      expect.objectContaining({
        choices: [],
        usage: expect.objectContaining({ prompt_tokens: 8, completion_tokens: 0 }),
      }),
    ]);
  });

  it('maps a blocked output to content_filter', () => {
    const { perPush, atFinish } = translateStream(
      [{ candidates: [{ finishReason: 'SAFETY', index: 0 }] }],
      false,
    );
    expect(perPush).toEqual([
      [chunkOf({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null })],
    ]);
    expect(atFinish).toEqual([chunkOf({ index: 0, delta: {}, finish_reason: 'content_filter' })]);
  });

  it('writes an image chunk as a Markdown image', () => {
    const { perPush } = translateStream([nativeImageResponse], false);
    expect(perPush[0][0].choices[0].delta.content).toBe('Hi.![image](data:image/png;base64,iVBORw0KGgo=)');
  });

  it('keeps candidates of candidateCount > 1 apart, each with its own role chunk and finish chunk', () => {
    const { perPush, atFinish } = translateStream(
      [
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'A' }] }, index: 0 },
            { content: { role: 'model', parts: [{ text: 'B' }] }, index: 1 },
          ],
        },
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'b' }] }, finishReason: 'STOP', index: 1 },
          ],
        },
      ],
      false,
    );
    expect(perPush.flat().map((chunk) => chunk.choices[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: 'A' }, finish_reason: null },
      { index: 1, delta: { role: 'assistant', content: 'B' }, finish_reason: null },
      { index: 1, delta: { content: 'b' }, finish_reason: null },
    ]);
    expect(atFinish.map((chunk) => chunk.choices[0].index)).toEqual([0, 1]);
  });

  it('returns nothing after finish', () => {
    const translator = createNativeToOpenAiChatStreamTranslator({ ...identity, includeUsage: true });
    translator.finish();
    expect(translator.push(nativeTextStream[1])).toEqual([]);
    expect(translator.finish()).toEqual([]);
  });
});
