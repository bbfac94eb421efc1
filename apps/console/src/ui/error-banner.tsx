import type { ReactNode } from 'react';
import { AdminApiError } from '../api/admin-api.error';

/** What the admin API said when it refused, or what went wrong on the way: never a blank page. */
export function ErrorBanner({ error, title = 'The gateway refused' }: { error: unknown; title?: string }) {
  if (error === null || error === undefined) return null;
  const message = error instanceof Error ? error.message : String(error);
  const detail =
    error instanceof AdminApiError
      ? [`HTTP ${error.status}`, error.code, error.param ? `field: ${error.param}` : undefined]
          .filter(Boolean)
          .join(' · ')
      : undefined;
  return (
    <div className="banner banner--error" role="alert">
      <strong>{title}:</strong> {message}
      {detail !== undefined && <div className="banner__detail">{detail}</div>}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="banner banner--ok" role="status">
      {children}
    </div>
  );
}
