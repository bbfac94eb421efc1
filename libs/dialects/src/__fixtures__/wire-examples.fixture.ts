import type { NativeGenerateResponse } from '../native/native-response.types';
import type { OpenAiChatChunk, OpenAiChatResponse } from '../openai/openai-chat.types';

/** Wire examples of upstreams.md, copied field for field (elisions filled in with short values). */

/** §1.4: an image model's generateContent answer. */
export const nativeImageResponse: NativeGenerateResponse = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ text: 'Hi.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
      },
      finishReason: 'STOP',
      index: 0,
      safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
    },
  ],
  usageMetadata: {
    promptTokenCount: 12,
    candidatesTokenCount: 1293,
    totalTokenCount: 1305,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }],
    candidatesTokensDetails: [
      { modality: 'TEXT', tokenCount: 3 },
      { modality: 'IMAGE', tokenCount: 1290 },
    ],
  },
  modelVersion: 'kappa-2.5-flash-image-preview',
  responseId: 'mZ3kZqAbCd',
};

/** §1.6: an alt=sse text stream, one object per `data:` event; usage cumulative, thoughts counted apart. */
export const nativeTextStream: NativeGenerateResponse[] = [
  {
    candidates: [
      { content: { role: 'model', parts: [{ text: 'Thinking about greetings', thought: true }] }, index: 0 },
    ],
    usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    modelVersion: 'kappa-2.0-flash',
    responseId: 'rsp-1',
  },
  {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }],
    usageMetadata: {
      promptTokenCount: 9,
      candidatesTokenCount: 1,
      thoughtsTokenCount: 4,
      totalTokenCount: 14,
    },
    modelVersion: 'kappa-2.0-flash',
    responseId: 'rsp-1',
  },
  {
    candidates: [
      { content: { role: 'model', parts: [{ text: 'lo there.' }] }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: {
      promptTokenCount: 9,
      candidatesTokenCount: 3,
      thoughtsTokenCount: 4,
      totalTokenCount: 16,
    },
    modelVersion: 'kappa-2.0-flash',
    responseId: 'rsp-1',
  },
];

/** §2.2: the chat completion answer. */
export const openAiTextResponse: OpenAiChatResponse = {
  id: 'chatcmpl-8xAbC',
  object: 'chat.completion',
  created: 1735689600,
  model: 'compat-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
  usage: {
    prompt_tokens: 9,
    completion_tokens: 3,
    total_tokens: 12,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  },
};

export function openAiChunk(
  choices: OpenAiChatChunk['choices'],
  usage?: OpenAiChatChunk['usage'],
): OpenAiChatChunk {
  const chunk: OpenAiChatChunk = {
    id: 'chatcmpl-8xAbC',
    object: 'chat.completion.chunk',
    created: 1735689600,
    model: 'compat-model',
    choices,
  };
  if (usage !== undefined) chunk.usage = usage;
  return chunk;
}

/** §2.2: the streamed answer, with the usage chunk that stream_options.include_usage adds. */
export const openAiTextStream: OpenAiChatChunk[] = [
  openAiChunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
  openAiChunk([{ index: 0, delta: { content: 'Hi.' }, finish_reason: null }]),
  openAiChunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
  openAiChunk([], { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 }),
];

/** A streamed tool call: id and name first, then the arguments in pieces, split inside a key and a value. */
export const openAiToolCallStream: OpenAiChatChunk[] = [
  openAiChunk([{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }]),
  openAiChunk([
    {
      index: 0,
      delta: {
        tool_calls: [
          { index: 0, id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      finish_reason: null,
    },
  ]),
  openAiChunk([
    { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }, finish_reason: null },
  ]),
  openAiChunk([
    {
      index: 0,
      delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Par' } }] },
      finish_reason: null,
    },
  ]),
  openAiChunk([
    { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }, finish_reason: null },
  ]),
  openAiChunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
  openAiChunk([], { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 }),
];
