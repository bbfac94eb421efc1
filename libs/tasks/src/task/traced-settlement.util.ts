import { tracing, type TraceAttributes } from '@gateway/observability';
import type { TaskSettlementService } from './task-settlement.service';

/**
 * Runs a task's settlement (capture or release) in a span of the task's trace when tracing is on;
 * otherwise just runs it. The attributes name the task's kind and model, never amounts of one account.
 */
function tracedSettlement<T>(
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

/**
 * A task's settlement calls, each in its span: every worker that settles tasks (steps, polls, image
 * jobs) wires these.
 */
export function tracedTaskSettlements(
  settlement: Pick<TaskSettlementService, 'releaseHold' | 'settle'>,
): Pick<TaskSettlementService, 'releaseHold' | 'settle'> {
  return {
    releaseHold: (holdRequestId, reason) =>
      tracedSettlement('task hold release', {}, () => settlement.releaseHold(holdRequestId, reason)),
    settle: (task, outcome) =>
      tracedSettlement(
        'task settlement',
        {
          'gateway.task.kind': task.kind,
          'gateway.model': task.model,
          'gateway.task.outcome': outcome.state,
        },
        () => settlement.settle(task, outcome),
      ),
  };
}
