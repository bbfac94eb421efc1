/** Route families decide the error dialect and which credential forms are accepted. */
export type RouteFamily = 'native' | 'openai' | 'beta' | 'admin' | 'system';

export function routeFamilyOf(url: string): RouteFamily {
  if (url.startsWith('/v1beta/') || url === '/v1beta') return 'native';
  if (url === '/bt' || url.startsWith('/bt?') || url.startsWith('/bt/')) return 'beta';
  if (url.startsWith('/v1/') || url === '/v1') return 'openai';
  if (url.startsWith('/admin')) return 'admin';
  return 'system';
}
