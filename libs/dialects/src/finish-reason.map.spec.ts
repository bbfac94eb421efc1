import { toNativeFinishReason, toOpenAiFinishReason } from './finish-reason.map';
import type { OpenAiFinishReason } from './openai/openai-chat.types';

describe('toOpenAiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['IMAGE_PROHIBITED_CONTENT', false, 'content_filter'],
    ['IMAGE_RECITATION', false, 'content_filter'],
    ['LANGUAGE', false, 'stop'],
    ['OTHER', false, 'stop'],
    ['MALFORMED_FUNCTION_CALL', false, 'stop'],
    ['IMAGE_OTHER', false, 'stop'],
    ['NO_IMAGE', false, 'stop'],
    ['UNEXPECTED_TOOL_CALL', false, 'stop'],
    ['TOO_MANY_TOOL_CALLS', false, 'stop'],
    ['FINISH_REASON_UNSPECIFIED', false, 'stop'],
    ['SOMETHING_NEW', false, 'stop'],
    [undefined, false, 'stop'],
  ] as const)('%s (function calls: %s) → %s', (nativeReason, hasFunctionCalls, expected) => {
    expect(toOpenAiFinishReason(nativeReason, hasFunctionCalls)).toBe(expected);
  });
});

describe('toNativeFinishReason', () => {
  it.each([
    ['stop', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['tool_calls', 'STOP'],
    ['function_call', 'STOP'],
    ['content_filter', 'SAFETY'],
    [null, undefined],
    [undefined, undefined],
  ] as const)('%s → %s', (openAiReason, expected) => {
    expect(toNativeFinishReason(openAiReason)).toBe(expected);
  });

  it('maps a reason outside the documented set to OTHER', () => {
    const relayReason = 'eos' as OpenAiFinishReason;
    expect(toNativeFinishReason(relayReason)).toBe('OTHER');
  });
});
