import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountsApi } from '../../api/admin.api';
import { unitsToMicros } from '../../format/money.util';
import { hasProblems, requiredName, type Problems } from '../../forms/validation.util';
import { FormActions } from '../../ui/form-actions';
import { TextField } from '../../ui/field';
import { LimitsFields } from '../keys/limits-fields';
import { limitsText, parseLimits } from '../keys/limits.util';

export function AccountForm({ onDone }: { onDone: (accountId?: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [overdraft, setOverdraft] = useState('0');
  const [governance, setGovernance] = useState(limitsText());
  const [problems, setProblems] = useState<Problems>({});
  const create = useMutation({
    mutationFn: accountsApi.create,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: ['accounts'] });
      onDone(account.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = { name: requiredName(name, 'Name') ?? '' };
    const overdraftLimitMicros = unitsToMicros(overdraft === '' ? '0' : overdraft);
    if (overdraftLimitMicros === undefined) found['overdraft'] = 'An amount in units, 0 or more.';
    const { limits, budget } = parseLimits(governance, found);
    setProblems(found);
    if (hasProblems(found) || overdraftLimitMicros === undefined) return;
    create.mutate({
      name: name.trim(),
      overdraftLimitMicros,
      ...(limits ? { limits } : {}),
      ...(budget ? { budget } : {}),
    });
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="New account">
      <div className="form__grid">
        <TextField
          label="Account name"
          name="accountName"
          value={name}
          onChange={setName}
          problem={problems['name'] || undefined}
        />
        <TextField
          label="Overdraft limit (units)"
          name="overdraft"
          value={overdraft}
          onChange={setOverdraft}
          problem={problems['overdraft'] || undefined}
          hint="How far below zero the available amount may go."
        />
      </div>
      <LimitsFields value={governance} onChange={setGovernance} problems={problems} />
      <FormActions
        error={create.error}
        submitLabel="Create account"
        busy={create.isPending}
        onCancel={() => onDone()}
      />
    </form>
  );
}
