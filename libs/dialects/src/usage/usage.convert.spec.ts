import {
  nativeUsageFromTokenUsage,
  openAiUsageFromTokenUsage,
  tokenUsageFromNative,
  tokenUsageFromOpenAi,
} from './usage.convert';

describe('tokenUsageFromNative', () => {
  it('reads the spec example: image tokens are output', () => {
    expect(
      tokenUsageFromNative({
        promptTokenCount: 12,
        candidatesTokenCount: 1293,
        totalTokenCount: 1305,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }],
      }),
    ).toEqual({ inputTokens: 12, outputTokens: 1293 });
  });

  it('bills thoughts as output and reports them as reasoning; cached tokens stay inside input', () => {
    expect(
      tokenUsageFromNative({
        promptTokenCount: 100,
        cachedContentTokenCount: 60,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 30,
        totalTokenCount: 150,
      }),
    ).toEqual({ inputTokens: 100, outputTokens: 50, cachedInputTokens: 60, reasoningTokens: 30 });
  });

  it('adds tool-use prompt tokens to input, as totalTokenCount does', () => {
    expect(
      tokenUsageFromNative({
        promptTokenCount: 10,
        toolUsePromptTokenCount: 5,
        candidatesTokenCount: 2,
        totalTokenCount: 17,
      }),
    ).toEqual({ inputTokens: 15, outputTokens: 2 });
  });

  it('reads absent counts as zero', () => {
    expect(tokenUsageFromNative({})).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});

describe('tokenUsageFromOpenAi', () => {
  it('reads the spec example', () => {
    expect(
      tokenUsageFromOpenAi({
        prompt_tokens: 9,
        completion_tokens: 3,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      }),
    ).toEqual({ inputTokens: 9, outputTokens: 3 });
  });

  it('reads cached and reasoning details; completion tokens already hold reasoning', () => {
    expect(
      tokenUsageFromOpenAi({
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 60 },
        completion_tokens_details: { reasoning_tokens: 30 },
      }),
    ).toEqual({ inputTokens: 100, outputTokens: 50, cachedInputTokens: 60, reasoningTokens: 30 });
  });

  it('tolerates null detail objects', () => {
    expect(
      tokenUsageFromOpenAi({
        prompt_tokens: 1,
        completion_tokens: 2,
        total_tokens: 3,
        prompt_tokens_details: null,
        completion_tokens_details: null,
      }),
    ).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});

describe('nativeUsageFromTokenUsage', () => {
  it('splits reasoning out of the output, as native counts do', () => {
    expect(
      nativeUsageFromTokenUsage({
        inputTokens: 100,
        outputTokens: 50,
        cachedInputTokens: 60,
        reasoningTokens: 30,
      }),
    ).toEqual({
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      totalTokenCount: 150,
    });
  });

  it('leaves zero optional counts out', () => {
    expect(
      nativeUsageFromTokenUsage({
        inputTokens: 9,
        outputTokens: 3,
        cachedInputTokens: 0,
        reasoningTokens: 0,
      }),
    ).toEqual({
      promptTokenCount: 9,
      candidatesTokenCount: 3,
      totalTokenCount: 12,
    });
  });
});

describe('openAiUsageFromTokenUsage', () => {
  it('writes the spec shape with both detail objects', () => {
    expect(openAiUsageFromTokenUsage({ inputTokens: 9, outputTokens: 3 })).toEqual({
      prompt_tokens: 9,
      completion_tokens: 3,
      total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('carries cached and reasoning counts', () => {
    expect(
      openAiUsageFromTokenUsage({
        inputTokens: 100,
        outputTokens: 50,
        cachedInputTokens: 60,
        reasoningTokens: 30,
      }),
    ).toMatchObject({
      prompt_tokens_details: { cached_tokens: 60 },
      completion_tokens_details: { reasoning_tokens: 30 },
    });
  });
});

describe('usage between the dialects', () => {
  it('keeps every count through native → normalised → OpenAI-style → normalised → native', () => {
    const native = {
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 30,
      totalTokenCount: 150,
    };
    const openAi = openAiUsageFromTokenUsage(tokenUsageFromNative(native));
    expect(nativeUsageFromTokenUsage(tokenUsageFromOpenAi(openAi))).toEqual(native);
  });
});
