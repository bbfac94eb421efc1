import type { TextStreamEvent } from '@gateway/providers-core';
import { createDialectBridge } from './dialect-bridge';
import type { StreamFraming, TextIngress } from './text-ingress';

const IDENTITY = { responseId: 'chatcmpl-1', createdSeconds: 1 };

function ingress(dialect: TextIngress['dialect'], framing: StreamFraming, includeUsage = false): TextIngress {
  return {
    dialect,
    route: dialect === 'native' ? '/v1beta/models' : '/v1/chat/completions',
    model: 'chat-fast',
    request:
      dialect === 'native'
        ? { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
        : { model: 'chat-fast', messages: [{ role: 'user', content: 'hi' }], stream: true },
    framing,
    includeUsage,
    candidateCount: 1,
    promptBytes: 10,
  };
}

function event(chunk: Record<string, unknown>): TextStreamEvent {
  return { chunk, json: JSON.stringify(chunk) };
}

/** The stream converter a request of `clientIngress` gets from a channel speaking `channelDialect`. */
function converterFor(clientIngress: TextIngress, channelDialect: TextIngress['dialect']) {
  return createDialectBridge(clientIngress, channelDialect, IDENTITY).createStreamConverter();
}

const contentChunk = (model: string) =>
  event({ id: 'c1', model, choices: [{ index: 0, delta: { content: 'Hi' } }] });
const usageChunk = event({
  id: 'c1',
  model: 'chat-fast',
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
});

describe('stream converters of the same-dialect bridges', () => {
  it('forwards OpenAI-style chunks of the requested model as sent', () => {
    const converter = converterFor(ingress('openai', 'openai-sse'), 'openai');
    expect(converter.forwardsAsSent(contentChunk('chat-fast'))).toBe(true);
  });

  it('renames the model of a chunk the upstream named differently', () => {
    const converter = converterFor(ingress('openai', 'openai-sse'), 'openai');
    const renamed = contentChunk('upstream-model-v2');

    expect(converter.forwardsAsSent(renamed)).toBe(false);
    expect(converter.push(renamed).map((json) => JSON.parse(json) as unknown)).toEqual([
      { ...renamed.chunk, model: 'chat-fast' },
    ]);
  });

  it('drops the usage chunk the gateway asked for when the client did not, and forwards it when it did', () => {
    const withoutUsage = converterFor(ingress('openai', 'openai-sse'), 'openai');
    expect(withoutUsage.forwardsAsSent(usageChunk)).toBe(false);
    expect(withoutUsage.push(usageChunk)).toEqual([]);

    const withUsage = converterFor(ingress('openai', 'openai-sse', true), 'openai');
    expect(withUsage.forwardsAsSent(usageChunk)).toBe(true);
  });

  it('forwards native events as sent only to a client that asked for SSE', () => {
    const chunk = event({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] });
    const sse = converterFor(ingress('native', 'native-sse'), 'native');
    const array = converterFor(ingress('native', 'native-json-array'), 'native');

    expect(sse.forwardsAsSent(chunk)).toBe(true);
    expect(array.forwardsAsSent(chunk)).toBe(false);
    expect(array.push(chunk)).toEqual([chunk.json]);
  });

  it('never forwards as sent across dialects', () => {
    const converter = converterFor(ingress('openai', 'openai-sse'), 'native');
    expect(converter.forwardsAsSent(event({ candidates: [] }))).toBe(false);
  });
});
