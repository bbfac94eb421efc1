import { ERROR_BODY_LIMIT_BYTES, readLimitedBody, upstreamErrorFromResponse } from './adapter-error.util';
import type { UpstreamHttpResponse } from './http-client';
import { UpstreamError, type UpstreamFailure } from './upstream-error';

function responseOf(status: number, chunks: Buffer[], consumed: { chunks: number }): UpstreamHttpResponse {
  async function* body(): AsyncIterable<Buffer> {
    for (const chunk of chunks) {
      consumed.chunks += 1;
      yield chunk;
    }
  }
  const unused = () => Promise.reject(new Error('not used'));
  return { status, headers: { 'retry-after': '3' }, body: body(), text: unused, bytes: unused, dump: unused };
}

describe('readLimitedBody', () => {
  it('reads a small body whole', async () => {
    const consumed = { chunks: 0 };
    const response = responseOf(500, [Buffer.from('{"error":'), Buffer.from('{}}')], consumed);
    await expect(readLimitedBody(response.body)).resolves.toBe('{"error":{}}');
  });

  it('stops at the limit without reading the rest of the body', async () => {
    const consumed = { chunks: 0 };
    const chunk = Buffer.alloc(40 * 1024, 'a');
    const response = responseOf(500, [chunk, chunk, chunk, chunk], consumed);
    const text = await readLimitedBody(response.body);
    expect(text).toHaveLength(ERROR_BODY_LIMIT_BYTES);
    expect(consumed.chunks).toBe(2);
  });
});

describe('upstreamErrorFromResponse', () => {
  it('classifies the status, the body text and the headers', async () => {
    const seen: unknown[] = [];
    const failure: UpstreamFailure = { kind: 'rate_limit', retryable: true, message: 'slow down' };
    const response = responseOf(429, [Buffer.from('{"error":"x"}')], { chunks: 0 });
    const error = await upstreamErrorFromResponse(response, (status, body, headers) => {
      seen.push(status, body, headers['retry-after']);
      return failure;
    });
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.failure).toBe(failure);
    expect(seen).toEqual([429, '{"error":"x"}', '3']);
  });

  it('still classifies by status when the body breaks off with a transport failure', async () => {
    async function* brokenBody(): AsyncIterable<Buffer> {
      yield Buffer.from('{"err');
      throw new UpstreamError({ kind: 'overload', retryable: true, message: 'reset' });
    }
    const unused = () => Promise.reject(new Error('not used'));
    const response: UpstreamHttpResponse = {
      status: 503,
      headers: {},
      body: brokenBody(),
      text: unused,
      bytes: unused,
      dump: unused,
    };
    const error = await upstreamErrorFromResponse(response, (status, body) => ({
      kind: 'overload',
      retryable: true,
      message: `${status}:${body}`,
    }));
    expect(error.failure.message).toBe('503:');
  });
});
