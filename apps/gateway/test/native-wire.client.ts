/**
 * A native-format client written from the wire description alone (the interface spec and upstreams
 * §1.6), deliberately independent of the gateway's own types and readers: requests are plain JSON,
 * SSE events are `data: <json>` lines ended by a blank line (CRLF or LF), and the stream without
 * `alt=sse` is one JSON array whose elements arrive incrementally.
 */
import { request } from 'node:http';

export interface WireChunk {
  receivedAtMs: number;
  json: Record<string, unknown>;
}

export interface WireStream {
  status: number;
  contentType: string;
  chunks: WireChunk[];
  /** Raw bytes as received, for framing assertions. */
  raw: string;
}

export interface StreamOptions {
  /** Stop reading (and destroy the connection) after this many chunks. */
  abortAfterChunks?: number;
}

function post(url: string, key: string, body: unknown) {
  const target = new URL(url);
  return request({
    method: 'POST',
    hostname: target.hostname,
    port: target.port,
    path: `${target.pathname}${target.search}`,
    headers: { 'content-type': 'application/json', 'x-vendor-api-key': key },
  }).end(JSON.stringify(body));
}

/** Reads SSE (`alt=sse`) or the JSON array, yielding each complete chunk the moment it is complete. */
export function streamGenerate(
  baseUrl: string,
  key: string,
  model: string,
  body: unknown,
  sse: boolean,
  options: StreamOptions = {},
): Promise<WireStream> {
  const url = `${baseUrl}/v1beta/models/${model}:streamGenerateContent${sse ? '?alt=sse' : ''}`;
  return new Promise((resolve, reject) => {
    const clientRequest = post(url, key, body);
    clientRequest.on('error', reject);
    clientRequest.on('response', (response) => {
      const chunks: WireChunk[] = [];
      let raw = '';
      let pending = '';
      const parser = sse ? new SseFramer() : new JsonArrayFramer();
      const finish = () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type']),
          chunks,
          raw,
        });
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        raw += text;
        pending += text;
        const complete = parser.take(pending);
        pending = complete.rest;
        for (const json of complete.items) {
          chunks.push({ receivedAtMs: Date.now(), json: JSON.parse(json) as Record<string, unknown> });
          if (options.abortAfterChunks !== undefined && chunks.length >= options.abortAfterChunks) {
            response.destroy();
            clientRequest.destroy();
            finish();
            return;
          }
        }
      });
      response.on('end', finish);
      response.on('error', () => finish());
    });
  });
}

interface Taken {
  items: string[];
  rest: string;
}

class SseFramer {
  take(buffer: string): Taken {
    const items: string[] = [];
    const normalised = buffer.replace(/\r\n/g, '\n');
    const events = normalised.split('\n\n');
    const rest = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) items.push(data);
    }
    return { items, rest };
  }
}

/** Tracks depth and strings to find each complete top-level element of a JSON array. */
class JsonArrayFramer {
  private opened = false;

  take(buffer: string): Taken {
    const items: string[] = [];
    let index = 0;
    let start = -1;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let consumed = 0;
    for (; index < buffer.length; index += 1) {
      const char = buffer[index];
      if (!this.opened) {
        if (char === '[') {
          this.opened = true;
          consumed = index + 1;
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === '{' || char === '[') {
        if (depth === 0) start = index;
        depth += 1;
      } else if (char === '}' || char === ']') {
        if (depth === 0) {
          consumed = index + 1;
          continue;
        }
        depth -= 1;
        if (depth === 0) {
          items.push(buffer.slice(start, index + 1));
          consumed = index + 1;
        }
      } else if (depth === 0 && (char === ',' || /\s/.test(char))) {
        consumed = index + 1;
      }
    }
    return { items, rest: buffer.slice(consumed) };
  }
}

export async function generate(baseUrl: string, key: string, model: string, body: unknown) {
  const response = await fetch(`${baseUrl}/v1beta/models/${model}:generateContent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-vendor-api-key': key },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Text of all parts of the first candidate of each chunk, concatenated. */
export function textOf(chunks: { json: Record<string, unknown> }[]): string {
  return chunks
    .map((chunk) => {
      const candidates = chunk.json['candidates'] as
        { content?: { parts?: { text?: string }[] } }[] | undefined;
      return (candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('');
    })
    .join('');
}
