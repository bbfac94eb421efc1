import { openAiTextStream, openAiToolCallStream } from '../__fixtures__/wire-examples.fixture';
import type { NativeGenerateRequest } from '../native/native-request.types';
import type { OpenAiChatChunk, OpenAiChatRequest, OpenAiChatResponse } from '../openai/openai-chat.types';
import { toOpenAiChatRequest } from './native-to-openai-chat.request';
import { toOpenAiChatResponse } from './native-to-openai-chat.response';
import { createNativeToOpenAiChatStreamTranslator } from './native-to-openai-chat.stream';
import { toNativeRequest } from './openai-chat-to-native.request';
import { toNativeResponse } from './openai-chat-to-native.response';
import { createOpenAiChatToNativeStreamTranslator } from './openai-chat-to-native.stream';

describe('round trips through the other dialect', () => {
  it('native request → OpenAI-style → native keeps every mapped field', () => {
    const native: NativeGenerateRequest = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather where this photo was taken?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://files.example.test/street.jpg' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Looking it up.' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris', days: 2 } } },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { forecast: ['sun', 'rain'] } } }],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: {
        temperature: 0.4,
        topP: 0.9,
        candidateCount: 1,
        maxOutputTokens: 512,
        stopSequences: ['END'],
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        seed: 42,
        responseLogprobs: true,
        logprobs: 2,
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: { summary: { type: 'STRING' }, rain: { type: 'BOOLEAN', nullable: true } },
          required: ['summary'],
        },
        thinkingConfig: { thinkingBudget: 1024 },
      },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Forecast of a city',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING' }, days: { type: 'INTEGER' } },
                required: ['city'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    };
    const there = toOpenAiChatRequest(native, { model: 'compat-model', stream: false });
    const back = toNativeRequest(there.request);
    expect(there.warnings).toEqual([]);
    expect(back.warnings).toEqual([]);
    expect(back.request).toEqual(native);
  });

  it('OpenAI-style request → native → OpenAI-style keeps messages, tools and sampling', () => {
    const openAi: OpenAiChatRequest = {
      model: 'compat-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Time in Tokyo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"time":"09:00"}' },
        { role: 'assistant', content: 'It is 09:00.' },
      ],
      temperature: 0.2,
      top_p: 0.8,
      n: 1,
      stop: ['END'],
      max_tokens: 64,
      seed: 3,
      presence_penalty: 0,
      frequency_penalty: 0,
      logprobs: true,
      top_logprobs: 2,
      response_format: { type: 'json_object' },
      reasoning_effort: 'medium',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_time',
            description: 'Local time',
            parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] },
          },
        },
      ],
      tool_choice: 'auto',
    };
    const back = toOpenAiChatRequest(toNativeRequest(openAi).request, {
      model: 'compat-model',
      stream: false,
    });
    expect(back.request).toEqual(openAi);
  });

  it('OpenAI-style response → native → OpenAI-style is unchanged', () => {
    const openAi: OpenAiChatResponse = {
      id: 'chatcmpl-8xAbC',
      object: 'chat.completion',
      created: 1735689600,
      model: 'compat-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 30,
        completion_tokens: 12,
        total_tokens: 42,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 5 },
      },
    };
    const native = toNativeResponse(openAi, { modelVersion: 'kappa-2.0-flash' });
    expect(
      toOpenAiChatResponse(native, { model: 'compat-model', id: openAi.id, created: openAi.created }),
    ).toEqual(openAi);
  });

  it.each([
    ['text', openAiTextStream],
    ['tool call', openAiToolCallStream],
  ])(
    'an OpenAI-style %s stream → native → OpenAI-style carries the same text, calls, finish and usage',
    (_kind, upstream) => {
      const toNative = createOpenAiChatToNativeStreamTranslator({ modelVersion: 'kappa-2.0-flash' });
      const toOpenAi = createNativeToOpenAiChatStreamTranslator({
        model: 'compat-model',
        id: 'chatcmpl-8xAbC',
        created: 1735689600,
        includeUsage: true,
      });
      const nativeChunks = [...upstream.flatMap((chunk) => toNative.push(chunk)), ...toNative.finish()];
      const back = [...nativeChunks.flatMap((chunk) => toOpenAi.push(chunk)), ...toOpenAi.finish()];
      expect(summarise(back)).toEqual(summarise(upstream));
    },
  );
});

/** What a client assembles from a stream: text, tool calls (name + arguments), finish reason, usage totals. */
function summarise(chunks: OpenAiChatChunk[]) {
  const choices = chunks.flatMap((chunk) => chunk.choices);
  const usage = chunks.find((chunk) => chunk.usage)?.usage;
  return {
    text: choices.map((choice) => choice.delta.content ?? '').join(''),
    toolCalls: choices
      .flatMap((choice) => choice.delta.tool_calls ?? [])
      .reduce<string[]>((calls, piece) => {
        calls[piece.index] =
          (calls[piece.index] ?? '') + (piece.function?.name ?? '') + (piece.function?.arguments ?? '');
        return calls;
      }, []),
    finishReason: choices.map((choice) => choice.finish_reason).filter((reason) => reason !== null),
    usage: usage && [usage.prompt_tokens, usage.completion_tokens, usage.total_tokens],
  };
}
