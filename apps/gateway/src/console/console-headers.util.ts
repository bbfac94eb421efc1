/**
 * The console's Content-Security-Policy: its own scripts, styles and API only; images and media from
 * its origin (the task previews go through the gateway's own URLs) or made in the page; never framed.
 * No 'unsafe-inline' anywhere: the build emits no inline script or style.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Sent with every answer under /console, the 404s and 503s included. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Vite names every file under assets/ by its content's hash: a new build gets new names. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** index.html and the unhashed files: checked again on every load, so a new build shows at once. */
export const REVALIDATED_CACHE = 'no-cache';
