/** One text call of each route family and mode, as a client sends it. */
export type TextCallKind = 'native' | 'native-stream' | 'openai' | 'openai-stream';

export const TEXT_CALL_KINDS: readonly TextCallKind[] = [
  'native',
  'native-stream',
  'openai',
  'openai-stream',
];

export interface TextCallAnswer {
  status: number;
  text: string;
  requestId: string;
}

/** Sends one call of `kind` and reads the whole answer (a stream to its end). */
export async function sendTextCall(
  baseUrl: string,
  key: string,
  kind: TextCallKind,
  prompt = 'Hello',
): Promise<TextCallAnswer> {
  const native = kind === 'native' || kind === 'native-stream';
  const stream = kind === 'native-stream' || kind === 'openai-stream';
  const path = native
    ? `/v1beta/models/kappa-2.0-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`
    : '/v1/chat/completions';
  const body = native
    ? { contents: [{ role: 'user', parts: [{ text: prompt }] }] }
    : { model: 'chat-fast', messages: [{ role: 'user', content: prompt }], stream };
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(native ? { 'x-vendor-api-key': key } : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    requestId: response.headers.get('x-request-id') ?? '',
  };
}
