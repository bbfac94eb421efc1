import { errorFromAnswer } from './admin-api.error';

/** Query values; undefined and empty strings are left out, so an empty filter means "no filter". */
export type Query = Record<string, string | number | boolean | undefined>;

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** The app shell listens: any 401 means the session ended (expired, signed out elsewhere). */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Every call of the console to the gateway. Authentication is the HttpOnly session cookie, sent by
 * the browser on same-origin requests: the console never holds the admin token, so there is no
 * Authorization header to add and nothing for an injected script to read.
 */
export async function adminRequest<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${path}${queryString(options.query)}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/admin/session')) {
      for (const listener of signedOutListeners) listener();
    }
    throw errorFromAnswer(response.status, text);
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
