import { SimulatorStatsSnapshot } from '../simulator-stats';

/**
 * Small HTTP helpers for the simulator's own specs: real requests over loopback with the global
 * fetch, and readers that keep the exact bytes and arrival times of streamed responses.
 */
export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
}

export interface TimedPiece {
  text: string;
  atMs: number;
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function getUrl(url: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The body as it arrives: each network read with the milliseconds since the request was sent. */
export async function postJsonTimed(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; pieces: TimedPiece[] }> {
  const startedAt = Date.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const pieces: TimedPiece[] = [];
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  if (!reader) return { status: response.status, pieces };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push({ text: decoder.decode(value, { stream: true }), atMs: Date.now() - startedAt });
  }
  return { status: response.status, pieces };
}

/** Splits an SSE body on the given event terminator and returns the `data:` payloads. */
export function sseData(body: string, terminator: '\r\n\r\n' | '\n\n'): string[] {
  return body
    .split(terminator)
    .filter((event) => event.length > 0)
    .map((event) => {
      if (!event.startsWith('data: ')) throw new Error(`not a data event: ${JSON.stringify(event)}`);
      return event.slice('data: '.length);
    });
}

/** A download's status, content type and raw bytes (result files are binary). */
export async function getBytes(
  url: string,
): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

export async function postForm(
  url: string,
  form: FormData,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const response = await fetch(url, { method: 'POST', headers, body: form });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export function parseJson(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

export async function simulatorStats(baseUrl: string): Promise<SimulatorStatsSnapshot> {
  return (await fetch(`${baseUrl}/__sim/stats`)).json() as Promise<SimulatorStatsSnapshot>;
}

/** Polls until the predicate holds (servers notice a client abort asynchronously). */
export async function eventually(predicate: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
