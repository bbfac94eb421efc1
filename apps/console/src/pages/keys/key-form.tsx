import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountsApi, keysApi, type KeyInput } from '../../api/admin.api';
import type { CreatedKey, Key } from '../../api/admin.types';
import { localInputToIso } from '../../format/time.util';
import { hasProblems, listOfNames, requiredName, type Problems } from '../../forms/validation.util';
import { FormActions } from '../../ui/form-actions';
import { SelectField, TextAreaField, TextField } from '../../ui/field';
import { LimitsFields } from './limits-fields';
import { limitsText, parseLimits } from './limits.util';

/** An IPv4 or IPv6 address with an optional prefix length; the gateway checks it exactly. */
const CIDR = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(?:\/\d{1,3})?$/;

/** An ISO time as a `datetime-local` value in local time. */
function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Create a key (its whole value is answered once, to `onCreated`) or change one. */
export function KeyForm({
  keyToEdit,
  onCreated,
  onDone,
}: {
  keyToEdit?: Key;
  onCreated: (key: CreatedKey) => void;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const editing = keyToEdit !== undefined;
  const accounts = useQuery({
    queryKey: ['accounts', 'choices'],
    queryFn: () => accountsApi.page({ limit: 100 }),
  });
  const [accountId, setAccountId] = useState(keyToEdit?.accountId ?? '');
  const [name, setName] = useState(keyToEdit?.name ?? '');
  const [expiresAt, setExpiresAt] = useState(isoToLocalInput(keyToEdit?.expiresAt));
  const [models, setModels] = useState((keyToEdit?.allowedModels ?? []).join(', '));
  const [allowedIps, setAllowedIps] = useState((keyToEdit?.allowedIps ?? []).join(', '));
  const [governance, setGovernance] = useState(limitsText(keyToEdit?.limits, keyToEdit?.budget));
  const [problems, setProblems] = useState<Problems>({});

  const save = useMutation({
    mutationFn: (body: KeyInput) => (editing ? keysApi.update(keyToEdit.id, body) : keysApi.create(body)),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['keys'] });
      if (!editing) onCreated(answer as CreatedKey);
      onDone();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = { name: requiredName(name, 'Name') ?? '' };
    if (!editing && accountId.trim() === '') found['accountId'] = 'Choose the account the key spends from.';
    const expiry = localInputToIso(expiresAt);
    if (expiresAt.trim() !== '' && expiry === undefined) found['expiresAt'] = 'Not a date and time.';
    else if (expiry !== undefined && !editing && new Date(expiry).getTime() <= Date.now())
      found['expiresAt'] = 'The expiry must be in the future.';
    const allowedModels = listOfNames(models);
    if (allowedModels.some((model) => model.length > 200))
      found['models'] = 'Model names are at most 200 characters.';
    const ips = listOfNames(allowedIps);
    const badIp = ips.find((range) => !CIDR.test(range));
    if (badIp !== undefined) found['allowedIps'] = `${badIp} is not an address or a CIDR range.`;
    const { limits, budget } = parseLimits(governance, found);
    setProblems(found);
    if (hasProblems(found)) return;
    const body: KeyInput = { name: name.trim(), allowedModels };
    if (!editing) body.accountId = accountId.trim();
    if (expiry !== undefined) body.expiresAt = expiry;
    else if (editing && keyToEdit.expiresAt !== null) body.expiresAt = null;
    if (limits !== undefined) body.limits = limits;
    else if (editing && keyToEdit.limits) body.limits = null;
    if (budget !== undefined) body.budget = budget;
    else if (editing && keyToEdit.budget) body.budget = null;
    // Sent only when given (or cleared): a gateway without IP allow-lists refuses the unknown field.
    if (ips.length > 0 || (editing && (keyToEdit.allowedIps ?? []).length > 0)) body.allowedIps = ips;
    save.mutate(body);
  };

  const accountOptions = [
    { value: '', label: 'Choose an account' },
    ...(accounts.data?.items ?? []).map((account) => ({ value: account.id, label: account.name })),
  ];
  if (accountId !== '' && !accountOptions.some((option) => option.value === accountId)) {
    accountOptions.push({ value: accountId, label: accountId });
  }
  const shown = (field: string) => problems[field] || undefined;
  return (
    <form
      className="form"
      onSubmit={submit}
      noValidate
      aria-label={editing ? `Edit key ${keyToEdit.name}` : 'New key'}
    >
      <div className="form__grid">
        {editing ? (
          <TextField
            label="Account"
            value={accountId}
            onChange={() => undefined}
            hint="A key stays with its account."
          />
        ) : (
          <SelectField
            label="Account"
            name="accountId"
            value={accountId}
            onChange={setAccountId}
            options={accountOptions}
            problem={shown('accountId')}
          />
        )}
        <TextField label="Name" name="name" value={name} onChange={setName} problem={shown('name')} />
        <TextField
          label="Expires at"
          name="expiresAt"
          type="datetime-local"
          value={expiresAt}
          onChange={setExpiresAt}
          problem={shown('expiresAt')}
          hint="Local time; empty: never."
        />
      </div>
      <TextAreaField
        label="Allowed models"
        name="allowedModels"
        value={models}
        onChange={setModels}
        problem={shown('models')}
        rows={2}
        hint="Comma or line separated; empty allows every model."
      />
      <TextField
        label="Allowed client addresses"
        name="allowedIps"
        value={allowedIps}
        onChange={setAllowedIps}
        problem={shown('allowedIps')}
        hint="CIDR ranges, IPv4 or IPv6, comma separated; empty allows every address."
      />
      <LimitsFields value={governance} onChange={setGovernance} problems={problems} />
      <FormActions
        error={save.error}
        submitLabel={editing ? 'Save key' : 'Create key'}
        busy={save.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
