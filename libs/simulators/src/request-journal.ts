/** One received request as tests see it through `GET /__sim/requests`. */
export interface JournalEntry {
  method: string;
  /** Path without the `/@<directives>` prefix and without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  /** Request headers, with every credential value replaced by `<redacted>`. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the wire accepted the credential the request carried. */
  authenticated: boolean;
  /** Raw body text, cut at 64 KiB (empty for multipart bodies, which `form` describes). */
  body: string;
  /** A multipart body: its text parts, and its files by name, type and length. */
  form?: JournalForm;
}

export interface JournalForm {
  fields: Record<string, string | string[]>;
  files: Array<{ field: string; filename: string; contentType: string; bytes: number }>;
}

export const JOURNAL_CAPACITY = 200;
export const JOURNAL_BODY_LIMIT = 64 * 1024;
const REDACTED = '<redacted>';

/** The last {@link JOURNAL_CAPACITY} requests, oldest first. */
export class RequestJournal {
  private entries: JournalEntry[] = [];

  record(entry: JournalEntry): JournalEntry {
    this.entries.push(entry);
    if (this.entries.length > JOURNAL_CAPACITY) this.entries.shift();
    return entry;
  }

  latest(limit: number): JournalEntry[] {
    return limit >= this.entries.length ? [...this.entries] : this.entries.slice(this.entries.length - limit);
  }

  clear(): void {
    this.entries = [];
  }
}

export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[] | undefined> {
  const copy: Record<string, string | string[] | undefined> = {};
  for (const name of Object.keys(headers)) {
    copy[name] = isCredentialName(name) ? REDACTED : headers[name];
  }
  return copy;
}

export function redactQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  if (!('key' in query)) return query;
  return { ...query, key: REDACTED };
}

export function truncateBody(body: string): string {
  return body.length > JOURNAL_BODY_LIMIT ? body.slice(0, JOURNAL_BODY_LIMIT) : body;
}

/** `Idempotency-Key` names a submission, not a credential: tests read it to see resubmissions. */
function isCredentialName(name: string): boolean {
  if (name === 'idempotency-key') return false;
  return name === 'authorization' || name === 'proxy-authorization' || name.includes('key');
}
