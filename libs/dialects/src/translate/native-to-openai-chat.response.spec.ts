import { nativeImageResponse } from '../__fixtures__/wire-examples.fixture';
import type { NativeCandidate, NativeGenerateResponse } from '../native/native-response.types';
import { toOpenAiChatResponse } from './native-to-openai-chat.response';

const options = { model: 'kappa-2.0-flash', id: 'chatcmpl-gw1', created: 1735689600 };

function responseWith(candidates: NativeCandidate[]): NativeGenerateResponse {
  return { candidates, modelVersion: 'kappa-2.0-flash', responseId: 'rsp-1' };
}

describe('toOpenAiChatResponse', () => {
  it('translates the spec example; the image part becomes a Markdown image', () => {
    expect(toOpenAiChatResponse(nativeImageResponse, options)).toEqual({
      id: 'chatcmpl-gw1',
      object: 'chat.completion',
      created: 1735689600,
      model: 'kappa-2.0-flash',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi.![image](data:image/png;base64,iVBORw0KGgo=)' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 1293,
        total_tokens: 1305,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });

  it('concatenates text parts and leaves thought parts out', () => {
    const openAi = toOpenAiChatResponse(
      responseWith([
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Greeting the user.', thought: true },
              { text: 'Hel' },
              { text: 'lo.', thoughtSignature: 'c2ln' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ]),
      options,
    );
    expect(openAi.choices[0].message).toEqual({ role: 'assistant', content: 'Hello.' });
  });

  it('turns function calls into tool_calls with call_<n> ids and ends the choice tool_calls', () => {
    const openAi = toOpenAiChatResponse(
      responseWith([
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
              { functionCall: { name: 'get_time' } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ]),
      options,
    );
    expect(openAi.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['OTHER', 'stop'],
    ['NO_IMAGE', 'stop'],
  ] as const)('maps finishReason %s to %s', (finishReason, expected) => {
    const openAi = toOpenAiChatResponse(responseWith([{ finishReason, index: 0 }]), options);
    expect(openAi.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: '' },
      finish_reason: expected,
    });
  });

  it('answers a blocked prompt with one empty, filtered choice', () => {
    const openAi = toOpenAiChatResponse(
      {
        promptFeedback: {
          blockReason: 'SAFETY',
          safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' }],
        },
        usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
        modelVersion: 'kappa-2.0-flash',
      },
      options,
    );
    expect(openAi.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(openAi.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 0, total_tokens: 8 });
  });

  it('keeps several candidates with their index', () => {
    const openAi = toOpenAiChatResponse(
      responseWith([
        { content: { role: 'model', parts: [{ text: 'A' }] }, finishReason: 'STOP', index: 0 },
        { content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'MAX_TOKENS', index: 1 },
      ]),
      options,
    );
    expect(
      openAi.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason]),
    ).toEqual([
      [0, 'A', 'stop'],
      [1, 'B', 'length'],
    ]);
  });

  it('bills thoughts as completion tokens and reports cached and reasoning details', () => {
    const openAi = toOpenAiChatResponse(
      {
        ...responseWith([
          { content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: 'STOP', index: 0 },
        ]),
        usageMetadata: {
          promptTokenCount: 100,
          cachedContentTokenCount: 60,
          candidatesTokenCount: 20,
          thoughtsTokenCount: 30,
          totalTokenCount: 150,
        },
      },
      options,
    );
    expect(openAi.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 50,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 60 },
      completion_tokens_details: { reasoning_tokens: 30 },
    });
  });

  it('maps logprobsResult to token logprobs', () => {
    const openAi = toOpenAiChatResponse(
      responseWith([
        {
          content: { role: 'model', parts: [{ text: 'Hi' }] },
          finishReason: 'STOP',
          index: 0,
          logprobsResult: {
            chosenCandidates: [{ token: 'Hi', logProbability: -0.1 }],
            topCandidates: [
              {
                candidates: [
                  { token: 'Hi', logProbability: -0.1 },
                  { token: 'Hey', logProbability: -2.5 },
                ],
              },
            ],
          },
        },
      ]),
      options,
    );
    expect(openAi.choices[0].logprobs).toEqual({
      content: [
        {
          token: 'Hi',
          logprob: -0.1,
          bytes: null,
          top_logprobs: [
            { token: 'Hi', logprob: -0.1, bytes: null },
            { token: 'Hey', logprob: -2.5, bytes: null },
          ],
        },
      ],
    });
  });
});
