import { normaliseNativeRequest, requestUsesSnakeCase } from './native-request.normalise';

const snakeCaseRequest = {
  system_instruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'What is on this picture?' },
        { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { file_data: { mime_type: 'image/jpeg', file_uri: 'https://files.example.test/cat.jpg' } },
      ],
    },
    {
      role: 'model',
      parts: [
        {
          function_call: { name: 'lookup_user', args: { user_id: 7, nested_map: { first_name: 'Ada' } } },
          thought_signature: 'c2ln',
        },
      ],
    },
    {
      role: 'user',
      parts: [
        { function_response: { name: 'lookup_user', response: { full_name: 'Ada L', home_town: 'London' } } },
      ],
    },
  ],
  generation_config: {
    max_output_tokens: 256,
    stop_sequences: ['END_OF_TEXT'],
    top_p: 0.9,
    top_k: 40,
    candidate_count: 1,
    response_mime_type: 'application/json',
    response_schema: {
      type: 'OBJECT',
      properties: {
        first_name: { type: 'STRING', max_length: 10 },
        tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['snake_value'] }, max_items: 3 },
        choice: { any_of: [{ type: 'OBJECT', properties: { inner_key: { type: 'STRING' } } }] },
      },
      required: ['first_name'],
      property_ordering: ['first_name', 'tags'],
    },
    thinking_config: { thinking_budget: 1024, include_thoughts: true },
    image_config: { aspect_ratio: '16:9', image_size: '1K' },
    speech_config: { voice_config: { prebuilt_voice_config: { voice_name: 'voice-a' } } },
  },
  safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
  tools: [
    {
      function_declarations: [
        {
          name: 'lookup_user',
          description: 'Finds a user',
          parameters: { type: 'OBJECT', properties: { user_id: { type: 'INTEGER' } }, required: ['user_id'] },
        },
      ],
    },
    { code_execution: {} },
  ],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['lookup_user'] } },
  cached_content: 'cachedContents/abc_def',
};

describe('normaliseNativeRequest', () => {
  const normalised = normaliseNativeRequest(snakeCaseRequest);

  it('renames the top-level fields', () => {
    expect(Object.keys(normalised).sort()).toEqual(
      [
        'cachedContent',
        'contents',
        'generationConfig',
        'safetySettings',
        'systemInstruction',
        'toolConfig',
        'tools',
      ].sort(),
    );
    expect(normalised['cachedContent']).toBe('cachedContents/abc_def');
    expect(normalised['safetySettings']).toEqual(snakeCaseRequest.safety_settings);
  });

  it('renames the fields of every part kind', () => {
    expect(normalised['contents']).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is on this picture?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://files.example.test/cat.jpg' } },
        ],
      },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'lookup_user', args: { user_id: 7, nested_map: { first_name: 'Ada' } } },
            thoughtSignature: 'c2ln',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: { name: 'lookup_user', response: { full_name: 'Ada L', home_town: 'London' } },
          },
        ],
      },
    ]);
  });

  it('renames generationConfig fields and its nested configs', () => {
    expect(normalised['generationConfig']).toMatchObject({
      maxOutputTokens: 256,
      stopSequences: ['END_OF_TEXT'],
      topP: 0.9,
      topK: 40,
      candidateCount: 1,
      responseMimeType: 'application/json',
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      imageConfig: { aspectRatio: '16:9', imageSize: '1K' },
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'voice-a' } } },
    });
  });

  it('renames schema keywords but keeps property names and enum values', () => {
    const generationConfig = normalised['generationConfig'] as Record<string, unknown>;
    expect(generationConfig['responseSchema']).toEqual({
      type: 'OBJECT',
      properties: {
        first_name: { type: 'STRING', maxLength: 10 },
        tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['snake_value'] }, maxItems: 3 },
        choice: { anyOf: [{ type: 'OBJECT', properties: { inner_key: { type: 'STRING' } } }] },
      },
      required: ['first_name'],
      propertyOrdering: ['first_name', 'tags'],
    });
  });

  it('renames tool declarations and tool config, keeping parameter property names', () => {
    expect(normalised['tools']).toEqual([
      {
        functionDeclarations: [
          {
            name: 'lookup_user',
            description: 'Finds a user',
            parameters: {
              type: 'OBJECT',
              properties: { user_id: { type: 'INTEGER' } },
              required: ['user_id'],
            },
          },
        ],
      },
      { codeExecution: {} },
    ]);
    expect(normalised['toolConfig']).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup_user'] },
    });
  });

  it('leaves no snake_case field name behind', () => {
    expect(requestUsesSnakeCase(snakeCaseRequest)).toBe(true);
    expect(requestUsesSnakeCase(normalised)).toBe(false);
  });

  it('does not change its input', () => {
    expect(snakeCaseRequest.generation_config.max_output_tokens).toBe(256);
    expect(Object.keys(snakeCaseRequest)).toContain('system_instruction');
  });

  it('keeps the camelCase spelling when both are present', () => {
    const both = normaliseNativeRequest({
      contents: [],
      generationConfig: { temperature: 0.2 },
      generation_config: { temperature: 0.9 },
    });
    expect(both).toEqual({ contents: [], generationConfig: { temperature: 0.2 } });
  });

  it('returns a body that is not an object as is', () => {
    expect(normaliseNativeRequest('text')).toBe('text');
    expect(normaliseNativeRequest(null)).toBeNull();
  });

  it.each([
    [
      'at the top',
      '{"constructor":{"a_b":1},"__proto__":{"c_d":2},"system_instruction":{"parts":[]}}',
      '{"constructor":{"a_b":1},"__proto__":{"c_d":2},"systemInstruction":{"parts":[]}}',
    ],
    [
      'in a content item',
      '{"contents":[{"constructor":1,"__proto__":{"x":1},"parts":[{"inline_data":{}}]}]}',
      '{"contents":[{"constructor":1,"__proto__":{"x":1},"parts":[{"inlineData":{}}]}]}',
    ],
    [
      'in a generation config',
      '{"generation_config":{"constructor":[],"__proto__":[]}}',
      '{"generationConfig":{"constructor":[],"__proto__":[]}}',
    ],
  ])(
    'keeps fields named constructor and __proto__ %s as plain fields, for the validator to refuse',
    (_where, text, expected) => {
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(requestUsesSnakeCase(body)).toBe(true);
      const normalised = normaliseNativeRequest(body);
      expect(JSON.stringify(normalised)).toBe(expected);
      expect(Object.getPrototypeOf(normalised)).toBe(Object.prototype);
    },
  );
});

describe('requestUsesSnakeCase', () => {
  it('is false for a camelCase request, user data with underscores included', () => {
    expect(
      requestUsesSnakeCase({
        contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: { user_id: 1 } } }] }],
        generationConfig: {
          responseSchema: { type: 'OBJECT', properties: { first_name: { type: 'STRING' } } },
        },
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { properties: { user_id: {} } } }] }],
      }),
    ).toBe(false);
  });

  it.each([
    ['a top-level field', { system_instruction: { parts: [] }, contents: [] }],
    ['a part field', { contents: [{ parts: [{ inline_data: { mimeType: 'image/png', data: '' } }] }] }],
    [
      'a field inside a part',
      { contents: [{ parts: [{ inlineData: { mime_type: 'image/png', data: '' } }] }] },
    ],
    ['a generationConfig field', { contents: [], generationConfig: { max_output_tokens: 5 } }],
    [
      'a schema keyword',
      { contents: [], generationConfig: { responseSchema: { properties: { a: { max_length: 2 } } } } },
    ],
    [
      'a tool config field',
      { contents: [], toolConfig: { functionCallingConfig: { allowed_function_names: [] } } },
    ],
  ])('is true for %s', (_label, body) => {
    expect(requestUsesSnakeCase(body)).toBe(true);
  });

  it('is false for a body that is not an object', () => {
    expect(requestUsesSnakeCase(undefined)).toBe(false);
  });

  it('does not mistake Object.prototype members for field rules', () => {
    expect(
      requestUsesSnakeCase(JSON.parse('{"constructor":{},"__proto__":{},"toString":1,"contents":[]}')),
    ).toBe(false);
  });
});
