import { openAiChunk, openAiTextStream, openAiToolCallStream } from '../__fixtures__/wire-examples.fixture';
import type { NativeGenerateResponse } from '../native/native-response.types';
import type { OpenAiChatChunk } from '../openai/openai-chat.types';
import { createOpenAiChatToNativeStreamTranslator } from './openai-chat-to-native.stream';

const options = { modelVersion: 'kappa-2.0-flash' };
const identity = { modelVersion: 'kappa-2.0-flash', responseId: 'chatcmpl-8xAbC' };

/** Feeds the chunks one by one and records what each push (and the final finish) returned. */
function translateStream(chunks: OpenAiChatChunk[]): {
  perPush: NativeGenerateResponse[][];
  atFinish: NativeGenerateResponse[];
} {
  const translator = createOpenAiChatToNativeStreamTranslator(options);
  const perPush = chunks.map((chunk) => translator.push(chunk));
  return { perPush, atFinish: translator.finish() };
}

describe('createOpenAiChatToNativeStreamTranslator', () => {
  it('translates the spec stream: text at once, finish and usage together on the last chunk', () => {
    const { perPush, atFinish } = translateStream(openAiTextStream);
    expect(perPush).toEqual([
      [],
      [{ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, index: 0 }], ...identity }],
      [],
      [
        {
          candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
          ...identity,
        },
      ],
    ]);
    expect(atFinish).toEqual([]);
  });

  it('passes text split across chunks on piece by piece', () => {
    const { perPush } = translateStream([
      openAiChunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      openAiChunk([{ index: 0, delta: { content: 'Hel' }, finish_reason: null }]),
      openAiChunk([{ index: 0, delta: { content: 'lo ' }, finish_reason: null }]),
      openAiChunk([{ index: 0, delta: { content: 'there.' }, finish_reason: null }]),
    ]);
    const texts = perPush.flat().map((chunk) => chunk.candidates?.[0].content?.parts[0].text);
    expect(texts).toEqual(['Hel', 'lo ', 'there.']);
  });

  it('assembles tool call arguments sent in pieces into one functionCall part', () => {
    const { perPush, atFinish } = translateStream(openAiToolCallStream);
    expect(perPush.slice(0, 6).flat()).toEqual([]);
    expect(perPush[6]).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 7, totalTokenCount: 27 },
        ...identity,
      },
    ]);
    expect(atFinish).toEqual([]);
  });

  it('keeps parallel tool calls apart by their index, in index order', () => {
    const { atFinish } = translateStream([
      openAiChunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 1, id: 'b', type: 'function', function: { name: 'get_time', arguments: '{"tz"' } },
              {
                index: 0,
                id: 'a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":' },
              },
            ],
          },
          finish_reason: null,
        },
      ]),
      openAiChunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] },
          finish_reason: null,
        },
      ]),
      openAiChunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, function: { arguments: ':"UTC"}' } }] },
          finish_reason: null,
        },
      ]),
      openAiChunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
    ]);
    expect(atFinish).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
                { functionCall: { name: 'get_time', args: { tz: 'UTC' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        ...identity,
      },
    ]);
  });

  it('emits the final chunk at the end, without usage, when include_usage was not honoured', () => {
    const { perPush, atFinish } = translateStream(openAiTextStream.slice(0, 3));
    expect(perPush[2]).toEqual([]);
    expect(atFinish).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
        ...identity,
      },
    ]);
  });

  it('flushes tool calls of a stream that ended without finish_reason, with no finishReason', () => {
    const { atFinish } = translateStream(openAiToolCallStream.slice(0, 5));
    expect(atFinish).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
            },
            index: 0,
          },
        ],
        ...identity,
      },
    ]);
  });

  it('ends a call with malformed arguments MALFORMED_FUNCTION_CALL', () => {
    const { atFinish } = translateStream([
      openAiChunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"a":' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ]),
    ]);
    expect(atFinish[0].candidates).toEqual([
      { content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL', index: 0 },
    ]);
  });

  it('maps length and content_filter finish reasons', () => {
    const length = translateStream([
      openAiChunk([{ index: 0, delta: { content: 'x' }, finish_reason: 'length' }]),
    ]);
    expect(length.perPush[0]).toHaveLength(1);
    expect(length.atFinish[0].candidates?.[0].finishReason).toBe('MAX_TOKENS');
    const filtered = translateStream([
      openAiChunk([{ index: 0, delta: {}, finish_reason: 'content_filter' }]),
    ]);
    expect(filtered.atFinish[0].candidates?.[0].finishReason).toBe('SAFETY');
  });

  it('keeps choices of n > 1 apart and closes them in one final chunk', () => {
    const { perPush, atFinish } = translateStream([
      openAiChunk([{ index: 0, delta: { content: 'A' }, finish_reason: null }]),
      openAiChunk([{ index: 1, delta: { content: 'B' }, finish_reason: null }]),
      openAiChunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      openAiChunk([{ index: 1, delta: { content: '!' }, finish_reason: 'stop' }]),
    ]);
    expect(perPush.flat().map((chunk) => chunk.candidates?.[0].index)).toEqual([0, 1, 1]);
    expect(atFinish[0].candidates?.map((candidate) => [candidate.index, candidate.finishReason])).toEqual([
      [0, 'STOP'],
      [1, 'STOP'],
    ]);
  });

  it('carries token logprobs of a text delta', () => {
    const { perPush } = translateStream([
      openAiChunk([
        {
          index: 0,
          delta: { content: 'Hi' },
          finish_reason: null,
          logprobs: { content: [{ token: 'Hi', logprob: -0.2, top_logprobs: [] }] },
        },
      ]),
    ]);
    expect(perPush[0][0].candidates?.[0].logprobsResult).toEqual({
      chosenCandidates: [{ token: 'Hi', logProbability: -0.2 }],
      topCandidates: [{ candidates: [] }],
    });
  });

  it('returns nothing after finish', () => {
    const translator = createOpenAiChatToNativeStreamTranslator(options);
    translator.finish();
    expect(translator.push(openAiTextStream[1])).toEqual([]);
    expect(translator.finish()).toEqual([]);
  });
});
