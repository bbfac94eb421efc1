import { PrivateHostAllowList } from '@gateway/providers-core';
import { HOSTILE_URLS } from '@gateway/providers-core/testing';
import { checkBody } from '../validation/check-body.util';
import { FieldProblem, validateBody } from '../validation/validate-body.util';
import { NativeGenerateRequestDto } from './native-generate-request.dto';

/** Every refused body of this file is also refused by checkBody, with the same problems. */
function problemsOf(body: unknown): FieldProblem[] {
  const result = validateBody(NativeGenerateRequestDto, body);
  if (result.ok) throw new Error('expected the request to be refused');
  expect(checkBody(NativeGenerateRequestDto, body)).toEqual(result);
  return result.problems;
}

/** Every accepted body of this file is also accepted by the plain rules alone, without instances. */
function acceptedValue(body: unknown): NativeGenerateRequestDto {
  const result = validateBody(NativeGenerateRequestDto, body);
  if (!result.ok) throw new Error(`expected the request to pass: ${JSON.stringify(result.problems)}`);
  expect(checkBody(NativeGenerateRequestDto, body)).toEqual({ ok: true });
  return result.value;
}

const textOnly = (parts: unknown[]) => ({ contents: [{ role: 'user', parts }] });
const minimal = { contents: [{ parts: [{ text: 'Hello' }] }] };
const PART_KINDS_TEXT = 'text, inlineData, fileData, functionCall, functionResponse';

describe('NativeGenerateRequestDto', () => {
  describe('valid requests', () => {
    it('accepts the minimal request', () => {
      expect(acceptedValue(minimal)).toBeInstanceOf(NativeGenerateRequestDto);
    });

    it('accepts a request using every field', () => {
      const full = {
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Describe these.' },
              { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
              { fileData: { fileUri: 'https://files.example/photo' } },
              { fileData: { mimeType: 'application/pdf', fileUri: 'https://files.example/doc.pdf' } },
            ],
          },
          {
            role: 'model',
            parts: [
              { text: 'Thinking…', thought: true },
              {
                functionCall: { name: 'lookup', args: { q: 'sea' }, id: 'call-1' },
                thoughtSignature: 'c2ln',
              },
            ],
          },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'lookup', response: { result: 42 }, id: 'call-1' } }],
          },
        ],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: {
          temperature: 0.7,
          topP: 0.95,
          topK: 40,
          candidateCount: 1,
          maxOutputTokens: 1024,
          stopSequences: ['END'],
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { answer: { type: 'STRING' } } },
          presencePenalty: 0.5,
          frequencyPenalty: -0.5,
          seed: 7,
          responseLogprobs: true,
          logprobs: 3,
          audioTimestamp: false,
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Alpha' } } },
          thinkingConfig: { thinkingBudget: -1, includeThoughts: true, thinkingLevel: 'high' },
          imageConfig: { aspectRatio: '16:9', imageSize: '4K' },
          responseModalities: ['TEXT', 'IMAGE'],
        },
        safetySettings: [
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'OFF' },
        ],
        tools: [
          {
            functionDeclarations: [
              { name: 'lookup', description: 'Looks up', parameters: { type: 'OBJECT' } },
            ],
          },
          { webSearch: {} },
          { webSearchRetrieval: {} },
          { codeExecution: {} },
          { urlContext: {} },
          { retrieval: { source: 'x' } },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
        cachedContent: 'cachedContents/abc',
      };
      const value = acceptedValue(full);
      expect(value.generationConfig?.imageConfig?.imageSize).toBe('4K');
      expect(value.contents[1]?.parts[1]?.functionCall?.args).toEqual({ q: 'sea' });
    });

    it('keeps unknown fields on the value at every depth', () => {
      const value = acceptedValue({
        contents: [{ parts: [{ text: 'Hi', videoMetadata: { fps: 2 } }] }],
        generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' },
        labels: { team: 'a' },
      });
      expect(value).toMatchObject({
        labels: { team: 'a' },
        generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' },
        contents: [{ parts: [{ text: 'Hi', videoMetadata: { fps: 2 } }] }],
      });
    });
  });

  describe('the body', () => {
    it.each([
      ['an array', []],
      ['null', null],
      ['a string', 'contents'],
      ['a number', 42],
    ])('refuses a body that is %s', (_kind, body) => {
      expect(problemsOf(body)).toEqual([{ field: '(body)', message: 'request body must be a JSON object' }]);
    });

    it('refuses an empty object naming contents', () => {
      expect(problemsOf({})).toEqual([{ field: 'contents', message: 'contents is required' }]);
    });
  });

  describe('contents and parts', () => {
    it.each([
      [{ contents: [] }, 'contents', 'contents must not be empty'],
      [{ contents: 'hi' }, 'contents', 'contents must be an array'],
      [{ contents: { parts: [] } }, 'contents', 'contents must be an array'],
      [{ contents: ['hi'] }, 'contents[0]', 'contents[0] must be an object'],
      [{ contents: [{ role: 'user' }] }, 'contents[0].parts', 'contents[0].parts is required'],
      [{ contents: [{ parts: 'hi' }] }, 'contents[0].parts', 'contents[0].parts must be an array'],
      [{ contents: [{ parts: [] }] }, 'contents[0].parts', 'contents[0].parts must not be empty'],
      [textOnly([[{ text: 'a' }]]), 'contents[0].parts[0]', 'contents[0].parts[0] must be an object'],
      [textOnly(['hello']), 'contents[0].parts[0]', 'contents[0].parts[0] must be an object'],
    ])('refuses %j at %s', (body, field, message) => {
      expect(problemsOf(body)).toEqual([{ field, message }]);
    });

    it('refuses a role other than user or model', () => {
      expect(problemsOf({ contents: [{ role: 'system', parts: [{ text: 'a' }] }] })).toEqual([
        { field: 'contents[0].role', message: 'contents[0].role must be one of user, model' },
      ]);
    });

    it('names an unknown part kind', () => {
      expect(problemsOf(textOnly([{ text: 'ok' }, { foo: 'bar' }]))).toEqual([
        {
          field: 'contents[0].parts[1]',
          message: `contents[0].parts[1] must have exactly one of ${PART_KINDS_TEXT} (found: foo)`,
        },
      ]);
    });

    it('names both kinds when a part carries two', () => {
      const part = { text: 'a', inlineData: { mimeType: 'image/png', data: 'AAAA' } };
      expect(problemsOf(textOnly([part]))[0]?.message).toBe(
        `contents[0].parts[0] must have exactly one of ${PART_KINDS_TEXT} (found: text, inlineData)`,
      );
    });

    it('does not count thought and thoughtSignature as kinds', () => {
      expect(problemsOf(textOnly([{ thought: true, thoughtSignature: 'x' }]))[0]?.message).toBe(
        `contents[0].parts[0] must have exactly one of ${PART_KINDS_TEXT} (found: none)`,
      );
      expect(acceptedValue(textOnly([{ text: 'a', thought: true, thoughtSignature: 'x' }]))).toBeDefined();
    });

    it('reports every bad part of a list, not just the first', () => {
      const problems = problemsOf(textOnly([{}, 'x', { text: 5 }]));
      expect(problems.map((problem) => problem.field)).toEqual([
        'contents[0].parts[0]',
        'contents[0].parts[1]',
        'contents[0].parts[2].text',
      ]);
      expect(problems[2]?.message).toBe('contents[0].parts[2].text must be a string');
    });

    it('checks inline data deep inside the conversation', () => {
      const body = {
        contents: [
          { parts: [{ text: 'a' }] },
          { role: 'user', parts: [{ text: 'b' }, { inlineData: { data: 'not base64!' } }] },
        ],
      };
      expect(problemsOf(body)).toEqual([
        {
          field: 'contents[1].parts[1].inlineData.mimeType',
          message: 'contents[1].parts[1].inlineData.mimeType is required',
        },
        {
          field: 'contents[1].parts[1].inlineData.data',
          message: 'contents[1].parts[1].inlineData.data must be Base64-encoded data',
        },
      ]);
    });

    it('refuses a MIME type without a subtype', () => {
      expect(problemsOf(textOnly([{ inlineData: { mimeType: 'png', data: 'AAAA' } }]))[0]?.message).toBe(
        'contents[0].parts[0].inlineData.mimeType must be a MIME type such as image/png',
      );
    });

    it('checks function calls and responses', () => {
      expect(
        problemsOf(
          textOnly([{ functionCall: { name: 'f', args: [1] } }, { functionResponse: { name: 'f' } }]),
        ),
      ).toEqual([
        {
          field: 'contents[0].parts[0].functionCall.args',
          message: 'contents[0].parts[0].functionCall.args must be an object',
        },
        {
          field: 'contents[0].parts[1].functionResponse.response',
          message: 'contents[0].parts[1].functionResponse.response is required',
        },
      ]);
    });

    it('requires parts in the system instruction', () => {
      expect(problemsOf({ ...minimal, systemInstruction: { text: 'Be brief' } })).toEqual([
        { field: 'systemInstruction.parts', message: 'systemInstruction.parts is required' },
      ]);
    });
  });

  describe('generationConfig', () => {
    const withConfig = (generationConfig: unknown) => ({ ...minimal, generationConfig });

    it.each([
      [{ temperature: 'hot' }, 'generationConfig.temperature must be a number'],
      [{ temperature: '0.5' }, 'generationConfig.temperature must be a number'],
      [{ temperature: 2.5 }, 'generationConfig.temperature must be between 0 and 2'],
      [{ topP: 1.5 }, 'generationConfig.topP must be between 0 and 1'],
      [{ maxOutputTokens: 1.5 }, 'generationConfig.maxOutputTokens must be an integer'],
      [{ maxOutputTokens: '100' }, 'generationConfig.maxOutputTokens must be an integer'],
      [{ maxOutputTokens: 0 }, 'generationConfig.maxOutputTokens must be at least 1'],
      [{ topK: 2.5 }, 'generationConfig.topK must be an integer'],
      [{ stopSequences: 'END' }, 'generationConfig.stopSequences must be an array'],
      [{ stopSequences: ['END', 3] }, 'generationConfig.stopSequences[1] must be a string'],
      [{ responseLogprobs: 'yes' }, 'generationConfig.responseLogprobs must be a boolean'],
      [{ responseSchema: 'x' }, 'generationConfig.responseSchema must be an object'],
      [
        { responseModalities: ['TEXT', 'VIDEO'] },
        'generationConfig.responseModalities[1] must be one of TEXT, IMAGE, AUDIO',
      ],
      [
        { imageConfig: { imageSize: '1k' } },
        'generationConfig.imageConfig.imageSize must be one of 1K, 2K, 4K',
      ],
      [
        { imageConfig: { aspectRatio: '7:3' } },
        'generationConfig.imageConfig.aspectRatio must be one of 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9',
      ],
      [
        { thinkingConfig: { thinkingBudget: -2 } },
        'generationConfig.thinkingConfig.thinkingBudget must be at least -1',
      ],
      [{ thinkingConfig: 'on' }, 'generationConfig.thinkingConfig must be an object'],
      [{ temperature: null }, 'generationConfig.temperature must be a number'],
    ])('refuses %j', (config, message) => {
      expect(problemsOf(withConfig(config)).map((problem) => problem.message)).toEqual([message]);
    });

    it('refuses a generationConfig that is not an object', () => {
      expect(problemsOf(withConfig([]))).toEqual([
        { field: 'generationConfig', message: 'generationConfig must be an object' },
      ]);
    });
  });

  describe('safety, tools and tool config', () => {
    it('lists the allowed safety thresholds', () => {
      const body = {
        ...minimal,
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_SOME' }],
      };
      expect(problemsOf(body)).toEqual([
        {
          field: 'safetySettings[0].threshold',
          message:
            'safetySettings[0].threshold must be one of BLOCK_NONE, BLOCK_ONLY_HIGH, BLOCK_MEDIUM_AND_ABOVE, BLOCK_LOW_AND_ABOVE, OFF',
        },
      ]);
    });

    it('refuses an unknown harm category', () => {
      const body = { ...minimal, safetySettings: [{ category: 'HARM_CATEGORY_OTHER', threshold: 'OFF' }] };
      expect(problemsOf(body)[0]?.field).toBe('safetySettings[0].category');
    });

    it('refuses an unknown function calling mode', () => {
      expect(
        problemsOf({ ...minimal, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }),
      ).toEqual([
        {
          field: 'toolConfig.functionCallingConfig.mode',
          message: 'toolConfig.functionCallingConfig.mode must be one of AUTO, ANY, NONE',
        },
      ]);
    });

    it('refuses allowed function names that are not strings', () => {
      const body = { ...minimal, toolConfig: { functionCallingConfig: { allowedFunctionNames: 'lookup' } } };
      expect(problemsOf(body)[0]?.message).toBe(
        'toolConfig.functionCallingConfig.allowedFunctionNames must be an array',
      );
    });

    it('checks function declarations and built-in tool options', () => {
      const body = {
        ...minimal,
        tools: [{ functionDeclarations: [{ description: 'x' }] }, { webSearch: true }],
      };
      expect(problemsOf(body)).toEqual([
        {
          field: 'tools[0].functionDeclarations[0].name',
          message: 'tools[0].functionDeclarations[0].name is required',
        },
        { field: 'tools[1].webSearch', message: 'tools[1].webSearch must be an object' },
      ]);
    });
  });

  it('reports every problem of a request at once', () => {
    const problems = problemsOf({
      contents: [{ role: 'bot', parts: [{ text: 'a' }] }],
      generationConfig: { temperature: 'hot', maxOutputTokens: 1.5 },
      cachedContent: 5,
    });
    expect(problems.map((problem) => problem.field)).toEqual([
      'contents[0].role',
      'generationConfig.temperature',
      'generationConfig.maxOutputTokens',
      'cachedContent',
    ]);
  });

  describe('request limits', () => {
    const items = (count: number, item: unknown) => Array.from({ length: count }, () => item);
    const declaration = { name: 'f' };

    it.each([
      [
        'contents',
        { contents: items(10_001, { parts: [{ text: 'a' }] }) },
        'contents must have at most 10000 items',
      ],
      ['parts', textOnly(items(10_001, { text: 'a' })), 'contents[0].parts must have at most 10000 items'],
      ['tools', { ...minimal, tools: items(129, {}) }, 'tools must have at most 128 items'],
      [
        'function declarations',
        { ...minimal, tools: [{ functionDeclarations: items(513, declaration) }] },
        'tools[0].functionDeclarations must have at most 512 items',
      ],
      [
        'stop sequences',
        { ...minimal, generationConfig: { stopSequences: items(17, 'END') } },
        'generationConfig.stopSequences must have at most 16 items',
      ],
      [
        'safety settings',
        {
          ...minimal,
          safetySettings: items(33, { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }),
        },
        'safetySettings must have at most 32 items',
      ],
      [
        'a function name',
        textOnly([{ functionCall: { name: 'f'.repeat(257) } }]),
        'contents[0].parts[0].functionCall.name must be at most 256 characters long',
      ],
      [
        'a file URI',
        textOnly([{ fileData: { fileUri: `https://files.example/${'a'.repeat(8_192)}` } }]),
        'contents[0].parts[0].fileData.fileUri must be at most 8192 characters long',
      ],
    ])('refuses too many or too long %s, naming the field', (_limit, body, message) => {
      expect(problemsOf(body).map((problem) => problem.message)).toEqual([message]);
    });

    it('accepts lists at their limit', () => {
      expect(acceptedValue({ contents: items(10_000, { parts: [{ text: 'a' }] }) }).contents).toHaveLength(
        10_000,
      );
    });

    it('refuses a free-form schema nested beyond the depth limit', () => {
      let schema: Record<string, unknown> = { type: 'STRING' };
      for (let level = 0; level < 100; level++) schema = { type: 'ARRAY', items: schema };
      const [problem] = problemsOf({ ...minimal, generationConfig: { responseSchema: schema } });
      expect(problem.message).toMatch(
        /^generationConfig\.responseSchema(\.items)+ must not be nested more than 64 levels deep$/,
      );
    });
  });

  describe('checkBody, the check of the native route', () => {
    it.each([
      [
        'unknown fields at every depth',
        { ...textOnly([{ text: 'Hi', videoMetadata: {} }]), labels: {} },
        true,
      ],
      ['a field set to undefined', { ...minimal, cachedContent: undefined }, true],
      [
        'a schema property named like an Object method',
        {
          ...minimal,
          generationConfig: { responseSchema: { properties: { toString: { type: 'STRING' } } } },
        },
        true,
      ],
      ['a __proto__ key', JSON.parse('{"contents":[{"parts":[{"text":"Hi"}]}],"__proto__":{"x":1}}'), false],
      ['a constructor key', { contents: [{ parts: [{ text: 'Hi' }], constructor: 1 }] }, false],
      ['a null optional object', { ...minimal, systemInstruction: null }, false],
      ['a null part', textOnly([null]), false],
      ['a part that is a list', textOnly([[{ text: 'a' }]]), false],
      ['a part with two kinds', textOnly([{ text: 'a', fileData: { fileUri: 'f' } }]), false],
      ['a tool that is a string', { ...minimal, tools: ['webSearch'] }, false],
      ['a thought flag that is a string', textOnly([{ text: 'a', thought: 'yes' }]), false],
    ])('answers like validateBody for %s', (_case, body: unknown, valid) => {
      const validation = validateBody(NativeGenerateRequestDto, body);
      expect(validation.ok).toBe(valid);
      expect(checkBody(NativeGenerateRequestDto, body)).toEqual(
        validation.ok ? { ok: true } : { ok: false, problems: validation.problems },
      );
    });
  });

  describe('file URIs handed to the upstream (docs/urls.md)', () => {
    /** The file at `contents[1].parts[1]`, behind a first turn and a text part. */
    const withFile = (fileUri: unknown) => ({
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }] },
        {
          role: 'user',
          parts: [{ text: 'What is this?' }, { fileData: { mimeType: 'image/png', fileUri } }],
        },
      ],
    });
    const FIELD = 'contents[1].parts[1].fileData.fileUri';
    const REFUSAL = `${FIELD} must be a public http(s) URL the upstream can fetch: `;

    it.each(HOSTILE_URLS)('refuses %s (%s), naming the field', (_name, url) => {
      const [problem, ...others] = problemsOf(withFile(url));
      expect(others).toEqual([]);
      expect(problem.field).toBe(FIELD);
      expect(problem.message).toContain(REFUSAL);
    });

    // No other scheme or file reference is documented for this wire (gateway-interface.md, upstreams.md §1.3).
    it.each([
      ['a resource name', 'files/abc123'],
      ['a storage bucket URI', 'gs://bucket/cat.png'],
      ['a data: URL (bytes go in inlineData)', 'data:image/png;base64,iVBORw0KGgo='],
      ['an asset reference of the video library', 'asset://asset_1'],
    ])('refuses %s: %s', (_case, fileUri) => {
      expect(problemsOf(withFile(fileUri))).toEqual([
        { field: FIELD, message: expect.stringContaining(REFUSAL) },
      ]);
    });

    it('refuses a hostile URI in the system instruction too', () => {
      const body = {
        ...minimal,
        systemInstruction: { parts: [{ fileData: { fileUri: 'http://[::1]/a.png' } }] },
      };
      expect(problemsOf(body).map((problem) => problem.field)).toEqual([
        'systemInstruction.parts[0].fileData.fileUri',
      ]);
    });

    it('accepts a public https URL', () => {
      expect(acceptedValue(withFile('https://files.example/cat.png'))).toBeDefined();
    });

    it("lets through what the operator's SSRF_ALLOW_HOSTS names, and only with that context", () => {
      const allowing = { forwardedUrlAllowList: new PrivateHostAllowList(['10.0.0.0/8']) };
      expect(checkBody(NativeGenerateRequestDto, withFile('http://10.1.2.3/cat.png'), allowing)).toEqual({
        ok: true,
      });
      expect(checkBody(NativeGenerateRequestDto, withFile('http://10.1.2.3/cat.png'))).toMatchObject({
        ok: false,
        problems: [{ field: FIELD }],
      });
      expect(
        checkBody(NativeGenerateRequestDto, withFile('http://192.168.1.2/cat.png'), allowing),
      ).toMatchObject({
        ok: false,
        problems: [{ field: FIELD }],
      });
    });
  });
});
