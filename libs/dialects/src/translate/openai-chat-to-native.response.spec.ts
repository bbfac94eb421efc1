import { openAiTextResponse } from '../__fixtures__/wire-examples.fixture';
import type { OpenAiChatChoice, OpenAiChatResponse } from '../openai/openai-chat.types';
import { toNativeResponse } from './openai-chat-to-native.response';

const options = { modelVersion: 'kappa-2.0-flash' };

function responseWith(choices: OpenAiChatChoice[]): OpenAiChatResponse {
  return { ...openAiTextResponse, choices };
}

describe('toNativeResponse', () => {
  it('translates the spec example', () => {
    expect(toNativeResponse(openAiTextResponse, options)).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
      modelVersion: 'kappa-2.0-flash',
      responseId: 'chatcmpl-8xAbC',
    });
  });

  it('turns tool calls into functionCall parts with parsed args and ends them STOP', () => {
    const native = toNativeResponse(
      responseWith([
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris","days":[1,2]}' },
              },
              { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ]),
      options,
    );
    expect(native.candidates).toEqual([
      {
        content: {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris', days: [1, 2] } } },
            { functionCall: { name: 'get_time', args: {} } },
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ]);
  });

  it('leaves out a call with malformed arguments and ends the candidate MALFORMED_FUNCTION_CALL', () => {
    const native = toNativeResponse(
      responseWith([
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Trying.',
            tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
          },
          finish_reason: 'tool_calls',
        },
      ]),
      options,
    );
    expect(native.candidates?.[0]).toEqual({
      content: { role: 'model', parts: [{ text: 'Trying.' }] },
      finishReason: 'MALFORMED_FUNCTION_CALL',
      index: 0,
    });
  });

  it.each([
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    ['stop', 'STOP'],
  ] as const)('maps finish_reason %s to %s', (finishReason, nativeReason) => {
    const native = toNativeResponse(
      responseWith([{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finishReason }]),
      options,
    );
    expect(native.candidates?.[0].finishReason).toBe(nativeReason);
  });

  it('keeps several choices with their index, an empty answer as no parts, and a refusal as text', () => {
    const native = toNativeResponse(
      responseWith([
        { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
        {
          index: 1,
          message: { role: 'assistant', content: null, refusal: 'I cannot help.' },
          finish_reason: 'stop',
        },
      ]),
      options,
    );
    expect(native.candidates).toEqual([
      { content: { role: 'model', parts: [] }, finishReason: 'SAFETY', index: 0 },
      { content: { role: 'model', parts: [{ text: 'I cannot help.' }] }, finishReason: 'STOP', index: 1 },
    ]);
  });

  it('maps cached and reasoning usage to cachedContentTokenCount and thoughtsTokenCount', () => {
    const native = toNativeResponse(
      {
        ...openAiTextResponse,
        usage: {
          prompt_tokens: 100,
          completion_tokens: 50,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 60 },
          completion_tokens_details: { reasoning_tokens: 30 },
        },
      },
      options,
    );
    expect(native.usageMetadata).toEqual({
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      totalTokenCount: 150,
    });
  });

  it('leaves usageMetadata out when the upstream sent no usage', () => {
    expect(toNativeResponse({ ...openAiTextResponse, usage: null }, options)).not.toHaveProperty(
      'usageMetadata',
    );
  });

  it('maps token logprobs to logprobsResult', () => {
    const native = toNativeResponse(
      responseWith([
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi' },
          finish_reason: 'stop',
          logprobs: {
            content: [
              {
                token: 'Hi',
                logprob: -0.1,
                bytes: [72, 105],
                top_logprobs: [
                  { token: 'Hi', logprob: -0.1 },
                  { token: 'Hey', logprob: -2.5 },
                ],
              },
            ],
          },
        },
      ]),
      options,
    );
    expect(native.candidates?.[0].logprobsResult).toEqual({
      chosenCandidates: [{ token: 'Hi', logProbability: -0.1 }],
      topCandidates: [
        {
          candidates: [
            { token: 'Hi', logProbability: -0.1 },
            { token: 'Hey', logProbability: -2.5 },
          ],
        },
      ],
    });
  });
});
