import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountsApi } from '../../api/admin.api';
import { unitsToMicros } from '../../format/money.util';
import { Notice } from '../../ui/error-banner';
import { FormActions } from '../../ui/form-actions';
import { TextField } from '../../ui/field';

const newIdempotencyKey = (kind: string) => `console-${kind}-${crypto.randomUUID()}`;

/**
 * A credit or a debit. Its idempotency key is made when the form opens and kept until it succeeds, so
 * a double click or a retry after a lost answer applies the money once.
 */
export function MoneyForm({ accountId, kind }: { accountId: string; kind: 'credit' | 'debit' }) {
  const queryClient = useQueryClient();
  const [units, setUnits] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string>();
  const [idempotencyKey, setIdempotencyKey] = useState(() => newIdempotencyKey(kind));
  const move = useMutation({
    mutationFn: (amountMicros: string) =>
      (kind === 'credit' ? accountsApi.credit : accountsApi.debit)(accountId, {
        amountMicros,
        idempotencyKey,
        ...(note.trim() === '' ? {} : { note: note.trim() }),
      }),
    onSuccess: async () => {
      setUnits('');
      setNote('');
      setIdempotencyKey(newIdempotencyKey(kind));
      await queryClient.invalidateQueries({ queryKey: ['accounts'] });
      await queryClient.invalidateQueries({ queryKey: ['ledger', accountId] });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const micros = unitsToMicros(units);
    if (micros === undefined || micros === '0') {
      setProblem('An amount above 0 in units, with at most 6 decimals (like 10 or 2.5).');
      return;
    }
    if (note.length > 1000) {
      setProblem('The note is at most 1000 characters.');
      return;
    }
    setProblem(undefined);
    move.mutate(micros);
  };

  const title = kind === 'credit' ? 'Credit' : 'Debit';
  return (
    <form className="form form--inline" onSubmit={submit} noValidate aria-label={`${title} the account`}>
      <TextField
        label={`${title} amount (units)`}
        name={`${kind}Amount`}
        value={units}
        onChange={setUnits}
        problem={problem}
      />
      <TextField label={`${title} note`} name={`${kind}Note`} value={note} onChange={setNote} />
      <FormActions
        error={move.error}
        submitLabel={title}
        busy={move.isPending}
        tone={kind === 'credit' ? 'primary' : 'danger'}
      />
      {move.isSuccess && (
        <Notice>{move.data.applied ? `${title} applied.` : `${title} had been applied already.`}</Notice>
      )}
    </form>
  );
}
