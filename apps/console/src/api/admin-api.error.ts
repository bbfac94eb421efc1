/**
 * A refusal of the admin API, as its OpenAI-style envelope says it: `{ error: { message, type, param,
 * code } }`. Forms show `message` and mark the field named by `param`.
 */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly param: string | undefined,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }

  /** A route this gateway does not have (yet): a feature that has not landed, not a failure. */
  get notFound(): boolean {
    return this.status === 404;
  }
}

interface ErrorEnvelope {
  error?: { message?: unknown; code?: unknown; param?: unknown; type?: unknown };
  message?: unknown;
}

const asText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The error of a non-2xx answer; tolerant of bodies that are not the envelope (a proxy's HTML page). */
export function errorFromAnswer(status: number, bodyText: string): AdminApiError {
  let envelope: ErrorEnvelope = {};
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed !== null && typeof parsed === 'object') envelope = parsed as ErrorEnvelope;
  } catch {
    // Not JSON: the status line is all there is to say.
  }
  const message =
    asText(envelope.error?.message) ?? asText(envelope.message) ?? `The gateway answered HTTP ${status}.`;
  return new AdminApiError(
    status,
    message,
    asText(envelope.error?.code) ?? asText(envelope.error?.type),
    asText(envelope.error?.param),
  );
}
