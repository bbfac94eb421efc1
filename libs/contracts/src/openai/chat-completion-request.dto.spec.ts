import { PrivateHostAllowList } from '@gateway/providers-core';
import { HOSTILE_URLS } from '@gateway/providers-core/testing';
import { checkBody } from '../validation/check-body.util';
import { FieldProblem, validateBody } from '../validation/validate-body.util';
import { ChatCompletionRequestDto } from './chat-completion-request.dto';

/** Every refused body of this file is also refused by checkBody, with the same problems. */
function problemsOf(body: unknown): FieldProblem[] {
  const result = validateBody(ChatCompletionRequestDto, body);
  if (result.ok) throw new Error('expected the request to be refused');
  expect(checkBody(ChatCompletionRequestDto, body)).toEqual(result);
  return result.problems;
}

/** Every accepted body of this file is also accepted by the plain rules alone, without instances. */
function acceptedValue(body: unknown): ChatCompletionRequestDto {
  const result = validateBody(ChatCompletionRequestDto, body);
  if (!result.ok) throw new Error(`expected the request to pass: ${JSON.stringify(result.problems)}`);
  expect(checkBody(ChatCompletionRequestDto, body)).toEqual({ ok: true });
  return result.value;
}

const minimal = { model: 'kappa-2.0-flash', messages: [{ role: 'user', content: 'Hello' }] };
const withMessages = (...messages: unknown[]) => ({ model: 'kappa-2.0-flash', messages });
const toolCall = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"sea"}' } };

describe('ChatCompletionRequestDto', () => {
  describe('valid requests', () => {
    it('accepts the minimal request', () => {
      expect(acceptedValue(minimal)).toBeInstanceOf(ChatCompletionRequestDto);
    });

    it('accepts a request using every field', () => {
      const value = acceptedValue({
        model: 'kappa-2.0-flash',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
          {
            role: 'user',
            name: 'ada',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [toolCall] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"answer":42}' },
          { role: 'assistant', content: 'It is 42.' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 100,
        max_completion_tokens: 200,
        temperature: 0.2,
        top_p: 0.9,
        n: 2,
        stop: ['END', 'STOP'],
        presence_penalty: -2,
        frequency_penalty: 2,
        seed: 11,
        tools: [
          {
            type: 'function',
            function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
          },
        ],
        tool_choice: { type: 'function', function: { name: 'lookup' } },
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
        logprobs: true,
        top_logprobs: 5,
        user: 'user-1',
        parallel_tool_calls: false,
      });
      expect(value.messages).toHaveLength(6);
    });

    it.each(['auto', 'none', 'required'])('accepts tool_choice %s', (toolChoice) => {
      expect(acceptedValue({ ...minimal, tool_choice: toolChoice }).tool_choice).toBe(toolChoice);
    });

    it('accepts stop as one string', () => {
      expect(acceptedValue({ ...minimal, stop: 'END' }).stop).toBe('END');
    });

    it('accepts null on optional fields, as the wire allows', () => {
      const value = acceptedValue({
        ...minimal,
        temperature: null,
        max_tokens: null,
        stop: null,
        tools: null,
        tool_choice: null,
        response_format: null,
        stream_options: null,
      });
      expect(value.temperature).toBeNull();
    });

    it('keeps unknown fields on the value', () => {
      const value = acceptedValue({ ...minimal, reasoning_effort: 'low', metadata: { team: 'a' } });
      expect(value).toMatchObject({ reasoning_effort: 'low', metadata: { team: 'a' } });
    });
  });

  describe('model and messages', () => {
    it.each([
      [{ messages: minimal.messages }, 'model', 'model is required'],
      [{ ...minimal, model: 5 }, 'model', 'model must be a string'],
      [{ ...minimal, model: '' }, 'model', 'model must not be empty'],
      [{ model: 'm' }, 'messages', 'messages is required'],
      [{ model: 'm', messages: [] }, 'messages', 'messages must not be empty'],
      [{ model: 'm', messages: 'hi' }, 'messages', 'messages must be an array'],
    ])('refuses %j at %s', (body, field, message) => {
      expect(problemsOf(body)).toEqual([{ field, message }]);
    });

    it('refuses an unknown role', () => {
      expect(problemsOf(withMessages({ role: 'bot', content: 'hi' }))).toEqual([
        {
          field: 'messages[0].role',
          message: 'messages[0].role must be one of system, developer, user, assistant, tool',
        },
      ]);
    });

    it('requires content', () => {
      expect(problemsOf(withMessages({ role: 'user' }))).toEqual([
        { field: 'messages[0].content', message: 'messages[0].content is required' },
      ]);
    });

    it('allows null content only for an assistant message with tool calls', () => {
      expect(
        problemsOf(withMessages({ role: 'user', content: 'a' }, { role: 'assistant', content: null })),
      ).toEqual([
        {
          field: 'messages[1].content',
          message: 'messages[1].content may be null only in an assistant message with tool_calls',
        },
      ]);
      expect(acceptedValue(withMessages({ role: 'assistant', tool_calls: [toolCall] }))).toBeDefined();
    });

    it('requires tool_call_id in a tool message', () => {
      expect(problemsOf(withMessages({ role: 'tool', content: '42' }))).toEqual([
        {
          field: 'messages[0].tool_call_id',
          message: 'messages[0].tool_call_id is required when role is tool',
        },
      ]);
    });

    it.each([
      [5, 'messages[0].content', 'messages[0].content must be a string or an array of content parts'],
      [[], 'messages[0].content', 'messages[0].content must not be empty'],
      [['hi'], 'messages[0].content[0]', 'messages[0].content[0] must be an object'],
      [[{ type: 'text' }], 'messages[0].content[0].text', 'messages[0].content[0].text is required'],
      [
        [{ type: 'audio' }],
        'messages[0].content[0].type',
        'messages[0].content[0].type must be one of text, image_url',
      ],
      [
        [
          { type: 'text', text: 'a' },
          { type: 'image_url', image_url: { url: 5 } },
        ],
        'messages[0].content[1].image_url.url',
        'messages[0].content[1].image_url.url must be a string',
      ],
      [
        [{ type: 'image_url', image_url: { url: 'https://img.example/a.png', detail: 'max' } }],
        'messages[0].content[0].image_url.detail',
        'messages[0].content[0].image_url.detail must be one of auto, low, high',
      ],
      [
        [{ type: 'image_url' }],
        'messages[0].content[0].image_url',
        'messages[0].content[0].image_url is required',
      ],
    ])('refuses content %j at %s', (content, field, message) => {
      expect(problemsOf(withMessages({ role: 'user', content }))).toEqual([{ field, message }]);
    });

    it('checks tool calls of an assistant message', () => {
      const badCall = { id: 'c', type: 'function', function: { name: 'f' } };
      expect(problemsOf(withMessages({ role: 'assistant', content: null, tool_calls: [badCall] }))).toEqual([
        {
          field: 'messages[0].tool_calls[0].function.arguments',
          message: 'messages[0].tool_calls[0].function.arguments is required',
        },
      ]);
    });
  });

  describe('sampling and options', () => {
    it.each([
      [{ temperature: 'hot' }, 'temperature must be a number'],
      [{ temperature: '0.5' }, 'temperature must be a number'],
      [{ temperature: 2.1 }, 'temperature must be between 0 and 2'],
      [{ top_p: -0.1 }, 'top_p must be between 0 and 1'],
      [{ n: 0 }, 'n must be at least 1'],
      [{ n: 1.5 }, 'n must be an integer'],
      [{ max_tokens: 1.5 }, 'max_tokens must be an integer'],
      [{ max_completion_tokens: '10' }, 'max_completion_tokens must be an integer'],
      [{ presence_penalty: -2.5 }, 'presence_penalty must be between -2 and 2'],
      [{ frequency_penalty: 3 }, 'frequency_penalty must be between -2 and 2'],
      [{ seed: 0.5 }, 'seed must be an integer'],
      [{ stop: 5 }, 'stop must be a string or an array of strings'],
      [{ stop: ['a', 1] }, 'stop[1] must be a string'],
      [{ stream: 'true' }, 'stream must be a boolean'],
      [{ stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage must be a boolean'],
      [{ logprobs: 1 }, 'logprobs must be a boolean'],
      [{ top_logprobs: 21 }, 'top_logprobs must be between 0 and 20'],
      [{ user: 5 }, 'user must be a string'],
      [{ parallel_tool_calls: 'no' }, 'parallel_tool_calls must be a boolean'],
    ])('refuses %j', (fields, message) => {
      expect(problemsOf({ ...minimal, ...fields }).map((problem) => problem.message)).toEqual([message]);
    });
  });

  describe('tools, tool choice and response format', () => {
    it.each([
      [
        { tools: [{ type: 'retrieval', function: { name: 'f' } }] },
        'tools[0].type',
        'tools[0].type must be one of function',
      ],
      [
        { tools: [{ type: 'function', function: {} }] },
        'tools[0].function.name',
        'tools[0].function.name is required',
      ],
      [{ tools: [{ type: 'function' }] }, 'tools[0].function', 'tools[0].function is required'],
      [
        { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
        'tools[0].function.parameters',
        'tools[0].function.parameters must be an object',
      ],
      [{ tool_choice: 'sometimes' }, 'tool_choice', 'tool_choice must be one of auto, none, required'],
      [
        { tool_choice: 3 },
        'tool_choice',
        'tool_choice must be one of auto, none, required or a named function',
      ],
      [
        { tool_choice: { type: 'function', function: {} } },
        'tool_choice.function.name',
        'tool_choice.function.name must be a string',
      ],
      [
        { tool_choice: { type: 'tool', function: { name: 'f' } } },
        'tool_choice.type',
        'tool_choice.type must be one of function',
      ],
      [
        { response_format: { type: 'xml' } },
        'response_format.type',
        'response_format.type must be one of text, json_object, json_schema',
      ],
      [
        { response_format: { type: 'json_schema' } },
        'response_format.json_schema',
        'response_format.json_schema is required when type is json_schema',
      ],
    ])('refuses %j at %s', (fields, field, message) => {
      expect(problemsOf({ ...minimal, ...fields })).toEqual([{ field, message }]);
    });
  });

  describe('request limits and data: URLs', () => {
    const items = (count: number, item: unknown) => Array.from({ length: count }, () => item);
    const image = (url: string) =>
      withMessages({ role: 'user', content: [{ type: 'image_url', image_url: { url } }] });
    const call = { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } };

    it.each([
      [
        'messages',
        withMessages(...items(10_001, { role: 'user', content: 'a' })),
        'messages must have at most 10000 items',
      ],
      [
        'content parts',
        withMessages({ role: 'user', content: items(10_001, { type: 'text', text: 'a' }) }),
        'messages[0].content must have at most 10000 items',
      ],
      [
        'tools',
        { ...minimal, tools: items(129, { type: 'function', function: { name: 'f' } }) },
        'tools must have at most 128 items',
      ],
      [
        'tool calls',
        withMessages({ role: 'assistant', content: null, tool_calls: items(513, call) }),
        'messages[0].tool_calls must have at most 512 items',
      ],
      ['stop sequences', { ...minimal, stop: items(17, 'END') }, 'stop must have at most 16 items'],
      ['a model name', { ...minimal, model: 'm'.repeat(257) }, 'model must be at most 256 characters long'],
      [
        'an image URL',
        image(`https://img.example/${'a'.repeat(8_192)}`),
        'messages[0].content[0].image_url.url must be at most 8192 characters long',
      ],
    ])('refuses too many or too long %s, naming the field', (_limit, body, message) => {
      expect(problemsOf(body).map((problem) => problem.message)).toEqual([message]);
    });

    it.each([
      ['invalid Base64', 'data:image/png;base64,not*base64', 'must carry Base64-encoded data after ;base64,'],
      [
        'Base64 of the wrong length',
        'data:image/png;base64,iVBORw0KGgo',
        'must carry Base64-encoded data after ;base64,',
      ],
      ['empty data', 'data:image/png;base64,', 'must carry Base64-encoded data after ;base64,'],
      [
        'a data: URL that is not Base64',
        'data:image/png,rawbytes',
        'must be an http(s) URL or a base64 data: URL (data:<MIME type>;base64,<data>)',
      ],
    ])(
      'refuses an image data: URL with %s, as the native route refuses bad inlineData',
      (_case, url, message) => {
        expect(problemsOf(image(url))).toEqual([
          {
            field: 'messages[0].content[0].image_url.url',
            message: `messages[0].content[0].image_url.url ${message}`,
          },
        ]);
      },
    );

    it('accepts a Base64 data: URL with parameters', () => {
      expect(acceptedValue(image('data:image/png;name=a.png;base64,iVBORw0KGgo='))).toBeDefined();
    });
  });

  describe('checkBody, the check of the OpenAI-style route', () => {
    const withTool = (fn: unknown) => ({ ...minimal, tools: [{ type: 'function', function: fn }] });

    it.each([
      ['unknown fields', { ...minimal, metadata: { team: 'a' } }, true],
      [
        'assistant tool calls without content',
        withMessages({ role: 'assistant', tool_calls: [toolCall] }),
        true,
      ],
      ['a null author name', withMessages({ role: 'user', content: 'a', name: null }), true],
      [
        'parameters with a property named like an Object method',
        withTool({ name: 'f', parameters: { valueOf: {} } }),
        true,
      ],
      ['a null message', withMessages(null), false],
      ['a message that is a list', withMessages([]), false],
      [
        'a tool call that is a number',
        withMessages({ role: 'assistant', content: null, tool_calls: [5] }),
        false,
      ],
      ['stream options that are a list', { ...minimal, stream_options: [] }, false],
      [
        'a json_schema format without its schema',
        { ...minimal, response_format: { type: 'json_schema' } },
        false,
      ],
      [
        'a tool message with a null call id',
        withMessages({ role: 'tool', content: 'x', tool_call_id: null }),
        false,
      ],
      ['a function strict flag that is a string', withTool({ name: 'f', strict: 'yes' }), false],
    ])('answers like validateBody for %s', (_case, body: unknown, valid) => {
      const validation = validateBody(ChatCompletionRequestDto, body);
      expect(validation.ok).toBe(valid);
      expect(checkBody(ChatCompletionRequestDto, body)).toEqual(
        validation.ok ? { ok: true } : { ok: false, problems: validation.problems },
      );
    });
  });

  describe('image URLs handed to the upstream (docs/urls.md)', () => {
    const PNG = 'data:image/png;base64,iVBORw0KGgo=';
    /** The image at `messages[1].content[1]`, behind a system message and a text part. */
    const withImage = (url: string) =>
      withMessages(
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      );
    const FIELD = 'messages[1].content[1].image_url.url';

    it.each(HOSTILE_URLS)('refuses %s (%s), naming the field', (_name, url) => {
      const [problem, ...others] = problemsOf(withImage(url));
      expect(others).toEqual([]);
      expect(problem.field).toBe(FIELD);
      expect(problem.message).toContain(`${FIELD} must be a public http(s) URL the upstream can fetch: `);
    });

    it('refuses a hostile URL in any message, whatever its role', () => {
      const body = withMessages(
        { role: 'user', content: [{ type: 'image_url', image_url: { url: PNG } }] },
        { role: 'assistant', content: 'A pixel.' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://169.254.169.254/' } }] },
      );
      expect(problemsOf(body).map((problem) => problem.field)).toEqual([
        'messages[2].content[0].image_url.url',
      ]);
    });

    it('accepts a data: URL and a public https URL', () => {
      expect(acceptedValue(withImage(PNG))).toBeDefined();
      expect(acceptedValue(withImage('https://images.example/cat.png?size=2'))).toBeDefined();
    });

    it("lets through what the operator's SSRF_ALLOW_HOSTS names, and only with that context", () => {
      const body = withImage('http://127.0.0.1:4010/files/cat.png');
      const allowing = { forwardedUrlAllowList: new PrivateHostAllowList(['127.0.0.1:4010']) };
      expect(checkBody(ChatCompletionRequestDto, body, allowing)).toEqual({ ok: true });
      expect(checkBody(ChatCompletionRequestDto, body)).toMatchObject({
        ok: false,
        problems: [{ field: FIELD }],
      });
      expect(
        checkBody(ChatCompletionRequestDto, withImage('http://127.0.0.1:4011/a.png'), allowing),
      ).toMatchObject({
        ok: false,
        problems: [{ field: FIELD }],
      });
    });
  });
});
