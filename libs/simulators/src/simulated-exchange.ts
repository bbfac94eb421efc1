import { Directives, findBodyDirectives, mergeDirectives, parseDirectives } from './directives';
import { JournalEntry, JournalForm } from './request-journal';

/**
 * Per-request state of a simulated wire call: the prefix directives, the abort signal that fires when
 * the client goes away, and the journal entry the wire marks as authenticated.
 */
export class SimulatedExchange {
  private readonly disconnect = new AbortController();
  private closedBySimulator = false;
  journalEntry: JournalEntry | undefined;

  constructor(private readonly prefixDirectives: Directives | undefined) {}

  static fromPrefix(prefix: string | undefined): SimulatedExchange {
    return new SimulatedExchange(prefix ? parseDirectives(prefix) : undefined);
  }

  /** Aborts when the client closes the connection before the response is complete. */
  get signal(): AbortSignal {
    return this.disconnect.signal;
  }

  get isClosedBySimulator(): boolean {
    return this.closedBySimulator;
  }

  clientDisconnected(): void {
    this.disconnect.abort();
  }

  /** Marks a deliberate cut (a stalled stream), which must not count as a client abort. */
  markClosedBySimulator(): void {
    this.closedBySimulator = true;
  }

  markAuthenticated(): void {
    if (this.journalEntry) this.journalEntry.authenticated = true;
  }

  /** Multipart bodies are read by the route, after the journal entry was written. */
  recordForm(form: JournalForm): void {
    if (this.journalEntry) this.journalEntry.form = form;
  }

  /** Prefix, then the `x-sim` header, then the body marker: later sources override earlier ones. */
  directives(header: string | string[] | undefined, rawBody: string): Directives {
    const headerText = Array.isArray(header) ? header.join(';') : header;
    const fromHeader = headerText ? parseDirectives(headerText) : undefined;
    const fromBody = rawBody ? findBodyDirectives(rawBody) : undefined;
    if (!fromHeader && !fromBody) return this.prefixDirectives ?? {};
    return mergeDirectives(this.prefixDirectives, fromHeader, fromBody);
  }
}
