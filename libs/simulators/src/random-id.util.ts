const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An alphanumeric id of `length` characters, the shape upstream response ids have. Math.random is
 * enough: the ids only need to differ, and it keeps the per-request path free of crypto calls.
 */
export function randomAlphanumeric(length: number): string {
  let id = '';
  for (let index = 0; index < length; index += 1) id += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return id;
}

/** `length` random decimal digits (upstream task ids and request-id timestamps are digit strings). */
export function randomDigits(length: number): string {
  let digits = '';
  for (let index = 0; index < length; index += 1) digits += Math.floor(Math.random() * 10);
  return digits;
}
