import { AdminApiError } from './admin-api.error';
import { adminRequest } from './admin-client';

export interface SessionView {
  expiresAt: string;
}

/**
 * Exchanges the admin token for the session cookie. The token goes out in this one request body and
 * is dropped by the caller right after: it is never stored in the page, localStorage or sessionStorage.
 */
export function signIn(token: string): Promise<void> {
  return adminRequest<void>('POST', '/admin/session', { body: { token } });
}

/** The current session, or null when there is none (401). */
export async function currentSession(): Promise<SessionView | null> {
  try {
    return await adminRequest<SessionView>('GET', '/admin/session');
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 401) return null;
    throw error;
  }
}

export function signOut(): Promise<void> {
  return adminRequest<void>('DELETE', '/admin/session');
}
