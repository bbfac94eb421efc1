import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/** A span's attribute values: plain figures and identifiers only (see TRACE_ATTRIBUTE_DENYLIST). */
export type TraceAttributes = Readonly<Record<string, string | number | boolean>>;

export type TraceSpan = Span;

/** The failure kind a rejection stands for; undefined when it is no failure. */
export type FailureKindOf = (error: unknown) => string | undefined;

/**
 * Attribute names refused whatever the caller passes: a span leaves the process for a collector
 * that operators may not guard like the database, so keys, secrets, tokens and request payloads
 * never go there, even by mistake. Identifiers (channel id, task id, model) are allowed.
 */
const TRACE_ATTRIBUTE_DENYLIST =
  /key|secret|token|password|authorization|cookie|prompt|payload|body|content/i;

/** The W3C header that carries a trace between processes (in a job's data across the queue). */
const TRACEPARENT = 'traceparent';

function allowedAttributes(attributes: TraceAttributes): Attributes {
  const allowed: Attributes = {};
  for (const name of Object.keys(attributes)) {
    if (!TRACE_ATTRIBUTE_DENYLIST.test(name)) allowed[name] = attributes[name];
  }
  return allowed;
}

/**
 * The one way the gateway and the workers trace. Off (the default) it does nothing and creates
 * nothing: `enabled` is a plain field, and every method returns at once without a span object, so a
 * hot path that calls it pays one property read. `startTracing` turns it on for the process.
 *
 * For call sites on a hot path, test `tracing.enabled` before building attributes:
 *   const span = tracing.enabled ? tracing.startSpan('hold', { 'gateway.model': model }) : undefined;
 *   … span?.end();
 */
export class Tracing {
  /** Whether spans are recorded and exported; false until startTracing. */
  enabled = false;
  private tracer: Tracer | undefined;

  /** Called by startTracing only. */
  enable(tracer: Tracer): void {
    this.tracer = tracer;
    this.enabled = true;
  }

  /** Back to off (tests, shutdown). */
  disable(): void {
    this.tracer = undefined;
    this.enabled = false;
  }

  /** A child of the active span (or a new trace); undefined when tracing is off. */
  startSpan(
    name: string,
    attributes: TraceAttributes = {},
    kind: SpanKind = SpanKind.INTERNAL,
  ): Span | undefined {
    if (!this.tracer) return undefined;
    return this.tracer.startSpan(name, { kind, attributes: allowedAttributes(attributes) });
  }

  /**
   * A new trace for a request that arrived at this process (the client's own trace headers are not
   * trusted: a public client must not choose or join the operator's traces).
   */
  startRootSpan(name: string, attributes: TraceAttributes = {}): Span | undefined {
    if (!this.tracer) return undefined;
    return this.tracer.startSpan(
      name,
      { kind: SpanKind.SERVER, attributes: allowedAttributes(attributes), root: true },
      ROOT_CONTEXT,
    );
  }

  /** Runs `fn` with `span` as the active span, so what it starts (spans, queued jobs) belongs to it. */
  runInSpan<T>(span: Span | undefined, fn: () => T): T {
    if (!span) return fn();
    return context.with(trace.setSpan(context.active(), span), fn);
  }

  /**
   * Runs `fn` in a child span of the active one that ends when `fn` settles; a rejection marks it
   * failed with `failureKind(error)` (a kind, never an error message, which may quote a payload;
   * undefined: the rejection is no failure, such as a job that reschedules itself). Off, it is
   * `fn(undefined)`.
   */
  async inSpan<T>(
    name: string,
    attributes: TraceAttributes,
    fn: (span: Span | undefined) => Promise<T>,
    failureKind: FailureKindOf = () => 'error',
  ): Promise<T> {
    const span = this.startSpan(name, attributes);
    if (!span) return fn(undefined);
    return this.runTo(span, fn, failureKind);
  }

  /**
   * Continues the trace a `traceparent` names (a job enqueued by the gateway) in a new span, for the
   * length of `fn`; without one it starts a new trace. Off, it is `fn(undefined)`.
   */
  async inRemoteSpan<T>(
    traceparent: string | undefined,
    name: string,
    attributes: TraceAttributes,
    fn: (span: Span | undefined) => Promise<T>,
    failureKind: FailureKindOf = () => 'error',
  ): Promise<T> {
    if (!this.tracer) return fn(undefined);
    const parent =
      traceparent === undefined
        ? ROOT_CONTEXT
        : propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent });
    const span = this.tracer.startSpan(
      name,
      { kind: SpanKind.CONSUMER, attributes: allowedAttributes(attributes) },
      parent,
    );
    return this.runTo(span, fn, failureKind, trace.setSpan(parent, span));
  }

  /** The active span's W3C traceparent, for a job's data; undefined when off or outside any span. */
  traceparent(): string | undefined {
    if (!this.tracer) return undefined;
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    return carrier[TRACEPARENT];
  }

  /** Marks a span failed with a kind (rate_limit, timeout …), never a message. */
  fail(span: Span | undefined, kind: string): void {
    if (!span) return;
    span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
    span.setAttribute('gateway.failure.kind', kind);
  }

  /** Sets attributes through the same filter as at start (for figures known only at the end). */
  annotate(span: Span | undefined, attributes: TraceAttributes): void {
    if (span) span.setAttributes(allowedAttributes(attributes));
  }

  private async runTo<T>(
    span: Span,
    fn: (span: Span | undefined) => Promise<T>,
    failureKind: FailureKindOf,
    active: Context = trace.setSpan(context.active(), span),
  ): Promise<T> {
    try {
      return await context.with(active, () => fn(span));
    } catch (error) {
      const kind = failureKind(error);
      if (kind !== undefined) this.fail(span, kind);
      throw error;
    } finally {
      span.end();
    }
  }
}

/** The process's tracing: one per process, as OpenTelemetry's own providers are. */
export const tracing = new Tracing();
