import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether the presented admin token equals ADMIN_TOKEN, in constant time. Both sides are hashed
 * first so the comparison takes the same time whatever their lengths, and leaks neither.
 */
export function isValidAdminToken(presented: string | undefined, adminToken: string): boolean {
  if (presented === undefined || adminToken.length === 0) return false;
  return timingSafeEqual(sha256(presented), sha256(adminToken));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
