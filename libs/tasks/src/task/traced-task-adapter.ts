import type { Task } from '@gateway/db';
import { tracing, type TraceAttributes, type TraceSpan } from '@gateway/observability';
import { UpstreamError, type TaskAdapter, type TaskPollResult } from '@gateway/providers-core';

/** A failed upstream call's kind for its span: the classified kind, or "transport" (no answer). */
function upstreamFailureKind(error: unknown): string {
  return error instanceof UpstreamError ? error.failure.kind : 'transport';
}

function annotateFailure(span: TraceSpan | undefined, error: unknown): void {
  if (error instanceof UpstreamError && error.failure.httpStatus !== undefined) {
    tracing.annotate(span, { 'gateway.upstream.status': error.failure.httpStatus });
  }
}

async function attempt<T>(
  name: string,
  attributes: TraceAttributes,
  call: () => Promise<T>,
  outcome: (result: T) => TraceAttributes,
): Promise<T> {
  return tracing.inSpan(
    name,
    attributes,
    async (span) => {
      try {
        const result = await call();
        tracing.annotate(span, outcome(result));
        return result;
      } catch (error) {
        annotateFailure(span, error);
        throw error;
      }
    },
    upstreamFailureKind,
  );
}

/**
 * The task's adapter with a span around each upstream call (submit, poll, findSubmission): the
 * channel's id and type, the task's kind, and the outcome (a poll's state, a failure's kind and HTTP
 * status). Never the handle, the request, the context or the answer: those may hold secrets and
 * payloads. Used only when tracing is on; every other member is the adapter's own.
 */
export function tracedTaskAdapter(
  adapter: TaskAdapter,
  task: Pick<Task, 'channelId' | 'kind'>,
  channelType: string,
): TaskAdapter {
  const attributes: TraceAttributes = {
    'gateway.channel.id': task.channelId ?? 'none',
    'gateway.channel.type': channelType,
    'gateway.task.kind': task.kind,
  };
  const traced = Object.create(adapter) as TaskAdapter;
  traced.submit = (call, context) =>
    attempt(
      'upstream submit',
      attributes,
      () => adapter.submit(call, context),
      () => ({
        'gateway.upstream.outcome': 'submitted',
      }),
    );
  traced.poll = (handle, context) =>
    attempt(
      'upstream poll',
      attributes,
      () => adapter.poll(handle, context),
      (result: TaskPollResult) => ({
        'gateway.upstream.outcome': result.state,
      }),
    );
  const findSubmission = adapter.findSubmission;
  if (findSubmission) {
    traced.findSubmission = (submissionKey, context) =>
      attempt(
        'upstream find submission',
        attributes,
        () => findSubmission.call(adapter, submissionKey, context),
        (found) => ({
          'gateway.upstream.outcome': found ? 'found' : 'not_found',
        }),
      );
  }
  return traced;
}
