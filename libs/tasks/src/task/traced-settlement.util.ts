import { tracing, type TraceAttributes } from '@gateway/observability';

/**
 * Runs a task's settlement (capture or release) in a span of the task's trace when tracing is on;
 * otherwise just runs it. The attributes name the task's kind and model, never amounts of one account.
 */
export function tracedSettlement<T>(
  name: 'task settlement' | 'task hold release',
  attributes: TraceAttributes,
  run: () => Promise<T>,
): Promise<T> {
  if (!tracing.enabled) return run();
  return tracing.inSpan(
    name,
    attributes,
    () => run(),
    () => 'settlement_error',
  );
}
