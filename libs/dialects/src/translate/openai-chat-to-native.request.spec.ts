import type {
  OpenAiChatMessage,
  OpenAiChatRequest,
  OpenAiTextContentPart,
} from '../openai/openai-chat.types';
import { TranslationError } from '../translation-error';
import { toNativeRequest } from './openai-chat-to-native.request';

const hi: OpenAiChatMessage[] = [{ role: 'user', content: 'Hi' }];

function chat(fields: Partial<OpenAiChatRequest>): OpenAiChatRequest {
  return { model: 'kappa-2.0-flash', messages: hi, ...fields };
}

function refusalOf(request: OpenAiChatRequest): TranslationError {
  try {
    toNativeRequest(request);
  } catch (error) {
    if (error instanceof TranslationError) return error;
    throw error;
  }
  throw new Error('expected a TranslationError');
}

describe('toNativeRequest: messages', () => {
  it('gathers system and developer messages into systemInstruction and maps user/assistant to user/model', () => {
    const { request, warnings } = toNativeRequest(
      chat({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Bye' }] },
        ],
      }),
    );
    expect(request).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello.' }] },
        { role: 'user', parts: [{ text: 'Bye' }] },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('turns data: image URLs into inlineData and http(s) URLs into fileData with a mimeType from the extension', () => {
    const { request } = toNativeRequest(
      chat({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              {
                type: 'image_url',
                image_url: { url: 'https://files.example.test/cat.webp?size=2', detail: 'high' },
              },
              { type: 'image_url', image_url: { url: 'https://files.example.test/render' } },
            ],
          },
        ],
      }),
    );
    expect(request.contents[0].parts).toEqual([
      { text: 'Compare' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://files.example.test/cat.webp?size=2' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://files.example.test/render' } },
    ]);
  });

  it('reads an image type only from known extensions, never from Object.prototype', () => {
    const urls = [
      'https://img.example.test/a.constructor',
      'https://img.example.test/b.__proto__',
      'https://img.example.test/c.toString',
    ];
    const { request } = toNativeRequest(
      chat({
        messages: [{ role: 'user', content: urls.map((url) => ({ type: 'image_url', image_url: { url } })) }],
      }),
    );
    expect(request.contents[0].parts).toEqual(
      urls.map((url) => ({ fileData: { mimeType: 'image/jpeg', fileUri: url } })),
    );
  });

  it('turns input audio and file data into inlineData', () => {
    const { request } = toNativeRequest(
      chat({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
              { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
              {
                type: 'file',
                file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
              },
            ],
          },
        ],
      }),
    );
    expect(request.contents[0].parts).toEqual([
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
    ]);
  });

  it('maps tool calls to functionCall parts and tool messages to one turn of functionResponse parts', () => {
    const { request } = toNativeRequest(
      chat({
        messages: [
          { role: 'user', content: 'Weather in Paris, and the time?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_w',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_t', content: 'noon' },
          { role: 'tool', tool_call_id: 'call_w', content: [{ type: 'text', text: '{"forecast":"sun"}' }] },
          { role: 'user', content: 'Thanks' },
        ],
      }),
    );
    expect(request.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris, and the time?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { content: 'noon' } } },
          { functionResponse: { name: 'get_weather', response: { forecast: 'sun' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('keeps the assistant text beside its tool calls and uses a refusal when there is no text', () => {
    const { request } = toNativeRequest(
      chat({
        messages: [
          { role: 'user', content: 'Do it' },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'Calling.' }],
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: '[1,2]' },
          { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
        ],
      }),
    );
    expect(request.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'Calling.' }, { functionCall: { name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { content: '[1,2]' } } }] },
      { role: 'model', parts: [{ text: 'I cannot help with that.' }] },
    ]);
  });

  it('drops message names with one warning', () => {
    const { request, warnings } = toNativeRequest(
      chat({
        messages: [
          { role: 'user', content: 'Hi', name: 'ada' },
          { role: 'user', content: 'Again', name: 'bob' },
        ],
      }),
    );
    expect(request.contents).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/^messages\[\]\.name: dropped/)]);
  });
});

describe('toNativeRequest: generation fields', () => {
  it('maps every sampling field', () => {
    const { request } = toNativeRequest(
      chat({
        temperature: 0.4,
        top_p: 0.9,
        n: 2,
        stop: 'END',
        max_tokens: 100,
        presence_penalty: 0.5,
        frequency_penalty: 0.25,
        seed: 7,
        logprobs: true,
        top_logprobs: 3,
      }),
    );
    expect(request.generationConfig).toEqual({
      temperature: 0.4,
      topP: 0.9,
      candidateCount: 2,
      stopSequences: ['END'],
      maxOutputTokens: 100,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      seed: 7,
      responseLogprobs: true,
      logprobs: 3,
    });
  });

  it('prefers max_completion_tokens over max_tokens and keeps a stop array', () => {
    const { request } = toNativeRequest(
      chat({ max_tokens: 100, max_completion_tokens: 300, stop: ['a', 'b'] }),
    );
    expect(request.generationConfig).toEqual({ maxOutputTokens: 300, stopSequences: ['a', 'b'] });
  });

  it('treats null fields as absent and sends no generationConfig when nothing is set', () => {
    const { request } = toNativeRequest(
      chat({
        temperature: null,
        top_p: null,
        n: null,
        stop: null,
        max_tokens: null,
        seed: null,
        stream: true,
      }),
    );
    expect(request).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('maps response formats', () => {
    expect(
      toNativeRequest(chat({ response_format: { type: 'text' } })).request.generationConfig,
    ).toBeUndefined();
    expect(
      toNativeRequest(chat({ response_format: { type: 'json_object' } })).request.generationConfig,
    ).toEqual({
      responseMimeType: 'application/json',
    });
    const { request, warnings } = toNativeRequest(
      chat({
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'person',
            strict: true,
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, age: { type: ['integer', 'null'] } },
              required: ['name', 'age'],
              additionalProperties: false,
            },
          },
        },
      }),
    );
    expect(request.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { name: { type: 'STRING' }, age: { type: 'INTEGER', nullable: true } },
        required: ['name', 'age'],
      },
    });
    expect(warnings).toEqual([
      'response_format.json_schema.schema: dropped schema keywords without a native equivalent: additionalProperties',
    ]);
  });

  it.each([
    ['none', 0],
    ['minimal', 128],
    ['low', 1024],
    ['medium', 8192],
    ['high', 24576],
  ] as const)('maps reasoning_effort %s to thinkingBudget %i', (effort, thinkingBudget) => {
    expect(toNativeRequest(chat({ reasoning_effort: effort })).request.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget },
    });
  });

  it.each(['user', 'parallel_tool_calls', 'store', 'metadata', 'service_tier'] as const)(
    'drops %s with a warning',
    (field) => {
      const values = {
        user: 'u-1',
        parallel_tool_calls: false,
        store: true,
        metadata: { a: 'b' },
        service_tier: 'auto',
      };
      const { request, warnings } = toNativeRequest(chat({ [field]: values[field] }));
      expect(request).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
      expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${field}: dropped`))]);
    },
  );
});

describe('toNativeRequest: tools', () => {
  const tools: OpenAiChatRequest['tools'] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather of a city',
        strict: true,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
      },
    },
    { type: 'function', function: { name: 'get_time' } },
  ];

  it('maps function tools to one functionDeclarations tool, warning about dropped schema keywords', () => {
    const { request, warnings } = toNativeRequest(chat({ tools }));
    expect(request.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
          },
          { name: 'get_time' },
        ],
      },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(/^tools\[0\]\.function\.parameters: .*additionalProperties$/),
    ]);
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'function', function: { name: 'get_time' } },
      { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    ],
  ] as const)('maps tool_choice %j', (toolChoice, functionCallingConfig) => {
    const { request } = toNativeRequest(chat({ tools, tool_choice: toolChoice }));
    expect(request.toolConfig).toEqual({ functionCallingConfig });
  });
});

describe('toNativeRequest: refusals', () => {
  it.each<[string, OpenAiChatRequest]>([
    ['logit_bias', chat({ logit_bias: { '50256': -100 } })],
    ['audio', chat({ audio: { voice: 'voice-a', format: 'wav' } })],
    ['modalities', chat({ modalities: ['text', 'audio'] })],
    ['prediction', chat({ prediction: { type: 'content', content: 'x' } })],
    ['web_search_options', chat({ web_search_options: {} })],
    ['functions', chat({ functions: [{ name: 'f' }] })],
    ['function_call', chat({ function_call: 'auto' })],
    [
      'tools[1].type',
      chat({ tools: [{ type: 'function', function: { name: 'f' } }, { type: 'file_search' }] }),
    ],
    ['tool_choice.type', chat({ tool_choice: { type: 'allowed_tools', allowed_tools: {} } })],
    [
      'response_format.type',
      chat({ response_format: { type: 'grammar' } as unknown as OpenAiChatRequest['response_format'] }),
    ],
    ['reasoning_effort', chat({ reasoning_effort: 'extreme' as OpenAiChatRequest['reasoning_effort'] })],
    ['messages', chat({ messages: [{ role: 'system', content: 'Only a system prompt' }] })],
    ['messages[0].role', chat({ messages: [{ role: 'function', name: 'f', content: '{}' }] })],
    [
      'messages[0].content[0].type',
      chat({
        messages: [
          {
            role: 'system',
            content: [
              {
                type: 'image_url',
                image_url: { url: 'https://files.example.test/a.png' },
              } as unknown as OpenAiTextContentPart,
            ],
          },
        ],
      }),
    ],
    [
      'messages[0].content[0].image_url.url',
      chat({
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] },
        ],
      }),
    ],
    [
      'messages[0].content[0].image_url.url',
      chat({
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,rawbytes' } }] },
        ],
      }),
    ],
    [
      'messages[0].content[0].file.file_id',
      chat({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }),
    ],
    [
      'messages[0].tool_calls[0].function.arguments',
      chat({
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
          },
        ],
      }),
    ],
    [
      'messages[1].tool_call_id',
      chat({ messages: [...hi, { role: 'tool', tool_call_id: 'nowhere', content: 'x' }] }),
    ],
  ])('refuses %s', (field, request) => {
    const error = refusalOf(request);
    expect(error.field).toBe(field);
    expect(error.message).not.toBe('');
  });

  it('accepts an empty logit_bias and text-only modalities', () => {
    expect(() => toNativeRequest(chat({ logit_bias: {}, modalities: ['text'] }))).not.toThrow();
  });
});
