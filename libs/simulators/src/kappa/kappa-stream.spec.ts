import { RunningSimulator, startSimulator } from '../server';
import { parseJson, postJson, postJsonTimed, sseData } from '../testing/simulator-client.util';

const KEY = { 'x-vendor-api-key': 'sim-kappa-key' };
const REQUEST = { contents: [{ role: 'user', parts: [{ text: 'Tell me something.' }] }] };

interface Chunk {
  candidates?: Array<{ content?: { parts: Array<{ text?: string }> }; finishReason?: string }>;
  usageMetadata?: { promptTokenCount: number; candidatesTokenCount?: number; totalTokenCount: number };
  promptFeedback?: { blockReason: string };
  error?: { code: number; status: string };
}

describe('kappa streamGenerateContent', () => {
  let simulator: RunningSimulator;
  const streamUrl = (query = '?alt=sse'): string =>
    `${simulator.url}/v1beta/models/kappa-2.0-flash:streamGenerateContent${query}`;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('frames alt=sse events exactly as "data: {json}\\r\\n\\r\\n" with no done sentinel', async () => {
    const result = await postJson(streamUrl(), REQUEST, { ...KEY, 'x-sim': 'chunks=3' });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/event-stream');
    const events = result.text.split('\r\n\r\n');
    expect(events).toHaveLength(4);
    expect(events[3]).toBe('');
    for (const event of events.slice(0, 3)) {
      expect(event).toMatch(/^data: \{.*\}$/);
      expect(event).not.toContain('\n');
    }
    expect(result.text).not.toContain('[DONE]');
  });

  it('sends only new text per chunk, cumulative usage, and the finish reason on the last chunk', async () => {
    const result = await postJson(streamUrl(), REQUEST, { ...KEY, 'x-sim': 'chunks=4;usage=30/40' });
    const chunks = sseData(result.text, '\r\n\r\n').map((data) => parseJson(data) as Chunk);
    expect(chunks).toHaveLength(4);
    const texts = chunks.map((chunk) => chunk.candidates?.[0].content?.parts[0].text);
    expect(texts.join('')).toBe(
      'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor lorem ipsum dolor sit.',
    );
    const counts = chunks.map((chunk) => chunk.usageMetadata?.candidatesTokenCount);
    expect(counts).toEqual([10, 20, 30, 40]);
    expect(chunks.every((chunk) => chunk.usageMetadata?.promptTokenCount === 30)).toBe(true);
    expect(chunks[3].usageMetadata?.totalTokenCount).toBe(70);
    expect(chunks.map((chunk) => chunk.candidates?.[0].finishReason)).toEqual([
      undefined,
      undefined,
      undefined,
      'STOP',
    ]);
  });

  it('writes one JSON array incrementally when alt is absent', async () => {
    const result = await postJson(streamUrl(''), REQUEST, { ...KEY, 'x-sim': 'chunks=3' });
    expect(result.headers.get('content-type')).toContain('application/json');
    expect(result.text.startsWith('[{')).toBe(true);
    expect(result.text.endsWith('}]')).toBe(true);
    expect(result.text.split(',\r\n{')).toHaveLength(3);
    const chunks = JSON.parse(result.text) as Chunk[];
    expect(chunks).toHaveLength(3);
    expect(chunks[2].candidates?.[0].finishReason).toBe('STOP');
  });

  it('paces chunks by the scripted interval', async () => {
    const { pieces } = await postJsonTimed(streamUrl(), REQUEST, {
      ...KEY,
      'x-sim': 'chunks=2;interval=200',
    });
    const arrivals = pieces.filter((piece) => piece.text.includes('data: '));
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    // Read from the request's start: on a loaded machine the first chunk can reach the client late,
    // which shortens the gap between the two arrivals, but the second is never sent before 200 ms.
    expect(arrivals[1].atMs).toBeGreaterThanOrEqual(150);
  });

  it('answers a blocked prompt with a single promptFeedback event and then ends', async () => {
    const result = await postJson(streamUrl(), REQUEST, { ...KEY, 'x-sim': 'block=prompt' });
    const chunks = sseData(result.text, '\r\n\r\n').map((data) => parseJson(data) as Chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].promptFeedback?.blockReason).toBe('SAFETY');
    expect(chunks[0].candidates).toBeUndefined();
  });

  it('sends the error envelope as one event after error_after chunks, then closes', async () => {
    const result = await postJson(streamUrl(), REQUEST, {
      ...KEY,
      'x-sim': 'error=overload;status=500;error_after=2',
    });
    expect(result.status).toBe(200);
    const chunks = sseData(result.text, '\r\n\r\n').map((data) => parseJson(data) as Chunk);
    expect(chunks).toHaveLength(3);
    expect(chunks[0].candidates?.[0].finishReason).toBeUndefined();
    expect(chunks[1].candidates?.[0].finishReason).toBeUndefined();
    expect(chunks[2]).toEqual({
      error: { code: 500, message: expect.any(String), status: 'INTERNAL' },
    });
  });

  it('ends a JSON-array stream with the error element after error_after chunks', async () => {
    const result = await postJson(streamUrl(''), REQUEST, {
      ...KEY,
      'x-sim': 'error=rate_limit;error_after=1',
    });
    const chunks = JSON.parse(result.text) as Chunk[];
    expect(chunks).toHaveLength(2);
    expect(chunks[1].error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });

  it('blocks the output mid-stream for content_policy with error_after', async () => {
    const result = await postJson(streamUrl(), REQUEST, {
      ...KEY,
      'x-sim': 'error=content_policy;error_after=1',
    });
    const chunks = sseData(result.text, '\r\n\r\n').map((data) => parseJson(data) as Chunk);
    expect(chunks).toHaveLength(2);
    expect(chunks[1].candidates?.[0]).toEqual(expect.objectContaining({ finishReason: 'SAFETY' }));
    expect(chunks[1].candidates?.[0].content).toBeUndefined();
  });

  it('streams the image as a whole inlineData part in the last chunk', async () => {
    const result = await postJson(
      `${simulator.url}/v1beta/models/kappa-2.5-flash-image-preview:streamGenerateContent?alt=sse`,
      { ...REQUEST, generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
      { ...KEY, 'x-sim': 'chunks=2' },
    );
    const chunks = sseData(result.text, '\r\n\r\n');
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).not.toContain('inlineData');
    expect(chunks[1]).toContain('"inlineData":{"mimeType":"image/png"');
    expect((parseJson(chunks[1]) as Chunk).usageMetadata?.candidatesTokenCount).toBeGreaterThan(1290);
  });
});
