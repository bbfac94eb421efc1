import type { NativeGenerateRequest } from '../native/native-request.types';
import { TranslationError } from '../translation-error';
import { toOpenAiChatRequest } from './native-to-openai-chat.request';

const options = { model: 'compat-model', stream: false };

function translate(native: NativeGenerateRequest, stream = false) {
  return toOpenAiChatRequest(native, { ...options, stream });
}

function userTurn(text: string): NativeGenerateRequest['contents'][number] {
  return { role: 'user', parts: [{ text }] };
}

function refusalOf(native: NativeGenerateRequest): TranslationError {
  try {
    translate(native);
  } catch (error) {
    if (error instanceof TranslationError) return error;
    throw error;
  }
  throw new Error('expected a TranslationError');
}

describe('toOpenAiChatRequest: contents', () => {
  it('maps systemInstruction to a system message and roles user/model to user/assistant', () => {
    const { request, warnings } = translate({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        userTurn('Hi'),
        { role: 'model', parts: [{ text: 'Hel' }, { text: 'lo.' }] },
        userTurn('Bye'),
      ],
    });
    expect(request).toEqual({
      model: 'compat-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Bye' },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('keeps several system text parts apart and treats a missing role as user', () => {
    const { request } = translate({
      systemInstruction: { parts: [{ text: 'One.' }, { text: 'Two.' }] },
      contents: [{ parts: [{ text: 'Hi' }] }],
    });
    expect(request.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'One.' },
          { type: 'text', text: 'Two.' },
        ],
      },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('turns inline images into data: URLs and image files into their URL', () => {
    const { request } = translate({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Compare' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://files.example.test/cat.jpg' } },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://files.example.test/cat.jpg' } },
        ],
      },
    ]);
  });

  it('maps function calls to tool_calls and function responses to tool messages, matched by name order', () => {
    const { request } = translate({
      contents: [
        userTurn('Weather in Paris and Rome, and the time?'),
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
            { functionCall: { name: 'get_time' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_time', response: { time: '12:00' } } },
            { functionResponse: { name: 'get_weather', response: { forecast: 'sun' } } },
            { functionResponse: { name: 'get_weather', response: { forecast: 'rain' } } },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome, and the time?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: '{"time":"12:00"}' },
      { role: 'tool', tool_call_id: 'call_0', content: '{"forecast":"sun"}' },
      { role: 'tool', tool_call_id: 'call_1', content: '{"forecast":"rain"}' },
    ]);
  });

  it('numbers calls through the whole conversation and puts tool results before the user text of the same turn', () => {
    const { request } = translate({
      contents: [
        userTurn('Go'),
        { role: 'model', parts: [{ functionCall: { name: 'step', args: {} } }] },
        {
          role: 'user',
          parts: [{ text: 'Continue' }, { functionResponse: { name: 'step', response: { ok: true } } }],
        },
        { role: 'model', parts: [{ functionCall: { name: 'step', args: { n: 2 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'step', response: { ok: false } } }] },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'step', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '{"ok":true}' },
      { role: 'user', content: 'Continue' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'step', arguments: '{"n":2}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"ok":false}' },
    ]);
  });

  it('prefers the call id when the client sends one', () => {
    const { request } = translate({
      contents: [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'f', args: {}, id: 'a1' } },
            { functionCall: { name: 'f', args: {}, id: 'b2' } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, id: 'b2' } }] },
      ],
    });
    expect(request.messages[1]).toEqual({ role: 'tool', tool_call_id: 'b2', content: '{}' });
  });

  it('drops thought parts and thought signatures of earlier model turns', () => {
    const { request } = translate({
      contents: [
        userTurn('Hi'),
        {
          role: 'model',
          parts: [
            { text: 'The user greets me.', thought: true },
            { text: 'Hello.', thoughtSignature: 'c2lnbmF0dXJl' },
          ],
        },
        { role: 'model', parts: [{ text: 'only a thought', thought: true }] },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ]);
  });
});

describe('toOpenAiChatRequest: generationConfig', () => {
  it('maps every sampling field', () => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      generationConfig: {
        temperature: 0.4,
        topP: 0.9,
        maxOutputTokens: 256,
        stopSequences: ['END'],
        candidateCount: 2,
        seed: 7,
        presencePenalty: 0.5,
        frequencyPenalty: 0.25,
        responseLogprobs: true,
        logprobs: 3,
      },
    });
    expect(request).toEqual({
      model: 'compat-model',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.4,
      top_p: 0.9,
      max_tokens: 256,
      stop: ['END'],
      n: 2,
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      logprobs: true,
      top_logprobs: 3,
    });
  });

  it('maps application/json to json_object, and with a schema to json_schema named "response"', () => {
    const jsonObject = translate({
      contents: [userTurn('Hi')],
      generationConfig: { responseMimeType: 'application/json' },
    });
    expect(jsonObject.request.response_format).toEqual({ type: 'json_object' });
    const jsonSchema = translate({
      contents: [userTurn('Hi')],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { name: { type: 'STRING' } }, required: ['name'] },
      },
    });
    expect(jsonSchema.request.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    });
  });

  it('sends nothing for text/plain and for TEXT-only responseModalities', () => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      generationConfig: { responseMimeType: 'text/plain', responseModalities: ['TEXT'] },
    });
    expect(request).toEqual({ model: 'compat-model', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it.each([
    [1, 'low'],
    [1024, 'low'],
    [1025, 'medium'],
    [8192, 'medium'],
    [8193, 'high'],
    [32768, 'high'],
  ])('buckets thinkingBudget %i as %s', (thinkingBudget, effort) => {
    const { request, warnings } = translate({
      contents: [userTurn('Hi')],
      generationConfig: { thinkingConfig: { thinkingBudget } },
    });
    expect(request.reasoning_effort).toBe(effort);
    expect(warnings).toEqual([]);
  });

  it('leaves a dynamic budget (-1) to the upstream default', () => {
    const { request, warnings } = translate({
      contents: [userTurn('Hi')],
      generationConfig: { thinkingConfig: { thinkingBudget: -1 } },
    });
    expect(request.reasoning_effort).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('omits a zero budget with a warning', () => {
    const { request, warnings } = translate({
      contents: [userTurn('Hi')],
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect(request.reasoning_effort).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('generationConfig.thinkingConfig.thinkingBudget')]);
  });

  it('maps thinkingLevel by name and warns that includeThoughts has no equivalent', () => {
    const { request, warnings } = translate({
      contents: [userTurn('Hi')],
      generationConfig: { thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: true } },
    });
    expect(request.reasoning_effort).toBe('high');
    expect(warnings).toEqual([expect.stringContaining('generationConfig.thinkingConfig.includeThoughts')]);
  });

  it('drops safetySettings with a warning', () => {
    const { request, warnings } = translate({
      contents: [userTurn('Hi')],
      safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
    });
    expect(request).toEqual({ model: 'compat-model', messages: [{ role: 'user', content: 'Hi' }] });
    expect(warnings).toEqual([expect.stringMatching(/^safetySettings: dropped/)]);
  });
});

describe('toOpenAiChatRequest: tools', () => {
  const tools: NativeGenerateRequest['tools'] = [
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
    { functionDeclarations: [{ name: 'get_news', description: 'Headlines' }] },
  ];
  const openAiTools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
    { type: 'function', function: { name: 'get_time' } },
    { type: 'function', function: { name: 'get_news', description: 'Headlines' } },
  ];

  it('flattens function declarations into function tools', () => {
    const { request } = translate({ contents: [userTurn('Hi')], tools });
    expect(request.tools).toEqual(openAiTools);
    expect(request.tool_choice).toBeUndefined();
  });

  it.each([
    ['AUTO', 'auto'],
    ['NONE', 'none'],
    ['ANY', 'required'],
  ] as const)('maps mode %s to tool_choice %s', (mode, toolChoice) => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      tools,
      toolConfig: { functionCallingConfig: { mode } },
    });
    expect(request.tool_choice).toBe(toolChoice);
    expect(request.tools).toEqual(openAiTools);
  });

  it('maps ANY with one allowed name to a named tool choice', () => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      tools,
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
    });
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'get_time' } });
    expect(request.tools).toEqual(openAiTools);
  });

  it('maps ANY with several allowed names to required with only those tools', () => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      tools,
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time', 'get_news'] } },
    });
    expect(request.tool_choice).toBe('required');
    expect(request.tools).toEqual([openAiTools[1], openAiTools[2]]);
  });

  it('sends no tool_choice without tools', () => {
    const { request } = translate({
      contents: [userTurn('Hi')],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    expect(request).toEqual({ model: 'compat-model', messages: [{ role: 'user', content: 'Hi' }] });
  });
});

describe('toOpenAiChatRequest: streaming', () => {
  it('always asks for the usage chunk', () => {
    const { request } = translate({ contents: [userTurn('Hi')] }, true);
    expect(request.stream).toBe(true);
    expect(request.stream_options).toEqual({ include_usage: true });
  });

  it('sends neither field for a non-streaming call', () => {
    const { request } = translate({ contents: [userTurn('Hi')] });
    expect(request).not.toHaveProperty('stream');
    expect(request).not.toHaveProperty('stream_options');
  });
});

describe('toOpenAiChatRequest: refusals', () => {
  const hi = [userTurn('Hi')];
  it.each<[string, NativeGenerateRequest]>([
    ['generationConfig.topK', { contents: hi, generationConfig: { topK: 40 } }],
    ['generationConfig.audioTimestamp', { contents: hi, generationConfig: { audioTimestamp: true } }],
    [
      'generationConfig.speechConfig',
      { contents: hi, generationConfig: { speechConfig: { voiceConfig: {} } } },
    ],
    [
      'generationConfig.imageConfig',
      { contents: hi, generationConfig: { imageConfig: { aspectRatio: '1:1' } } },
    ],
    [
      'generationConfig.responseModalities',
      { contents: hi, generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
    ],
    [
      'generationConfig.responseModalities',
      { contents: hi, generationConfig: { responseModalities: ['AUDIO'] } },
    ],
    [
      'generationConfig.responseMimeType',
      { contents: hi, generationConfig: { responseMimeType: 'text/x.enum' } },
    ],
    [
      'generationConfig.responseSchema',
      { contents: hi, generationConfig: { responseSchema: { type: 'STRING' } } },
    ],
    [
      'generationConfig.thinkingConfig.thinkingLevel',
      { contents: hi, generationConfig: { thinkingConfig: { thinkingLevel: 'EXTREME' } } },
    ],
    ['cachedContent', { contents: hi, cachedContent: 'cachedContents/abc' }],
    ['tools[0].webSearch', { contents: hi, tools: [{ webSearch: {} }] }],
    [
      'tools[1].webSearchRetrieval',
      { contents: hi, tools: [{ functionDeclarations: [] }, { webSearchRetrieval: {} }] },
    ],
    ['tools[0].codeExecution', { contents: hi, tools: [{ codeExecution: {} }] }],
    ['tools[0].urlContext', { contents: hi, tools: [{ urlContext: {} }] }],
    ['tools[0].retrieval', { contents: hi, tools: [{ retrieval: {} }] }],
    [
      'contents[0].parts[1].inlineData',
      {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'Listen' }, { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }],
          },
        ],
      },
    ],
    [
      'contents[0].parts[0].fileData',
      {
        contents: [
          {
            role: 'user',
            parts: [
              { fileData: { mimeType: 'application/pdf', fileUri: 'https://files.example.test/a.pdf' } },
            ],
          },
        ],
      },
    ],
    [
      'contents[0].parts[0].fileData',
      {
        contents: [
          {
            role: 'user',
            parts: [{ fileData: { mimeType: 'video/mp4', fileUri: 'https://files.example.test/a.mp4' } }],
          },
        ],
      },
    ],
    [
      'contents[1].parts[0].inlineData',
      {
        contents: [
          userTurn('Draw'),
          { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
        ],
      },
    ],
    [
      'contents[0].parts[0].functionResponse',
      { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'orphan', response: {} } }] }] },
    ],
    [
      'contents[0].parts[0].functionCall',
      { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f', args: {} } }] }] },
    ],
    [
      'systemInstruction.parts[0]',
      { systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] }, contents: hi },
    ],
    [
      'toolConfig.functionCallingConfig.allowedFunctionNames',
      {
        contents: hi,
        tools: [{ functionDeclarations: [{ name: 'a' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } },
      },
    ],
  ])('refuses %s', (field, native) => {
    const error = refusalOf(native);
    expect(error.field).toBe(field);
    expect(error.message).not.toBe('');
  });

  it('refuses an unknown role, naming it', () => {
    const native = {
      contents: [{ role: 'function', parts: [{ text: 'x' }] }],
    } as unknown as NativeGenerateRequest;
    expect(refusalOf(native).field).toBe('contents[0].role');
  });

  it('refuses an unknown function calling mode', () => {
    const native = {
      contents: hi,
      tools: [{ functionDeclarations: [{ name: 'a' }] }],
      toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } },
    } as unknown as NativeGenerateRequest;
    expect(refusalOf(native).field).toBe('toolConfig.functionCallingConfig.mode');
  });
});
