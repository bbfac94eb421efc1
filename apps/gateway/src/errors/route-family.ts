/** Route families decide the error dialect and which credential forms are accepted. */
export type RouteFamily = 'native' | 'openai' | 'beta' | 'alpha' | 'gamma' | 'lambda' | 'admin' | 'system';

export function routeFamilyOf(url: string): RouteFamily {
  if (url.startsWith('/v1beta/') || url === '/v1beta') return 'native';
  if (url === '/bt' || url.startsWith('/bt?') || url.startsWith('/bt/')) return 'beta';
  if (url.startsWith('/v1/') || url === '/v1') return 'openai';
  if (url.startsWith('/alpha/') || url === '/alpha') return 'alpha';
  if (url.startsWith('/gamma/') || url === '/gamma') return 'gamma';
  if (url.startsWith('/lambda/') || url === '/lambda') return 'lambda';
  if (url.startsWith('/admin')) return 'admin';
  return 'system';
}
