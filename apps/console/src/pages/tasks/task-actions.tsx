import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tasksApi } from '../../api/admin.api';
import type { TaskDetail } from '../../api/admin.types';
import { microsToUnits } from '../../format/money.util';
import { Notice } from '../../ui/error-banner';
import { FormActions } from '../../ui/form-actions';
import { TextField } from '../../ui/field';

const ENDED = new Set(['completed', 'failed', 'cancelled']);
const REASON_MAX = 500;

function checkReason(reason: string): string | undefined {
  if (reason.trim() === '') return 'Say why: it is written on the task and in the log.';
  if (reason.length > REASON_MAX) return `At most ${REASON_MAX} characters.`;
  return undefined;
}

/** Cancel an unfinished task (its hold released), or refund a completed one's capture (once). */
export function TaskActions({ task }: { task: TaskDetail }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string>();
  // One key per page visit: a retried refund answers applied: false instead of paying twice.
  const [refundKey] = useState(() => `console-refund-${crypto.randomUUID()}`);
  const refresh = async () => {
    setReason('');
    await queryClient.invalidateQueries({ queryKey: ['tasks'] });
    await queryClient.invalidateQueries({ queryKey: ['ledger'] });
    await queryClient.invalidateQueries({ queryKey: ['accounts'] });
  };
  const cancel = useMutation({
    mutationFn: (why: string) => tasksApi.cancel(task.id, why),
    onSuccess: refresh,
  });
  const refund = useMutation({
    mutationFn: (why: string) => tasksApi.refund(task.id, why, refundKey),
    onSuccess: refresh,
  });

  const canCancel = !ENDED.has(task.status);
  const canRefund =
    task.status === 'completed' && task.money.refundedMicros === '0' && task.money.capturedMicros !== '0';
  if (!canCancel && !canRefund) {
    return (
      <>
        {cancel.isSuccess && (
          <Notice>
            Cancelled{cancel.data.upstreamStopped ? ' upstream too' : ' here; the upstream may run on'}.
          </Notice>
        )}
        {refund.isSuccess && <Notice>Refunded {microsToUnits(refund.data.amountMicros)} units.</Notice>}
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkReason(reason);
    setProblem(found);
    if (found !== undefined) return;
    if (canCancel) cancel.mutate(reason.trim());
    else refund.mutate(reason.trim());
  };
  const action = canCancel ? 'Cancel task' : `Refund ${microsToUnits(task.money.capturedMicros)} units`;
  return (
    <form
      className="form form--inline"
      onSubmit={submit}
      noValidate
      aria-label={canCancel ? 'Cancel the task' : 'Refund the task'}
    >
      <TextField
        label={canCancel ? 'Why cancel' : 'Why refund'}
        name="reason"
        value={reason}
        onChange={setReason}
        problem={problem}
      />
      <FormActions
        error={cancel.error ?? refund.error}
        submitLabel={action}
        busy={cancel.isPending || refund.isPending}
        tone="danger"
      />
    </form>
  );
}
