import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { WebhookEndpoint } from '../../api/admin.types';
import { webhooksApi } from '../../api/webhooks.api';
import { hasProblems, httpUrl, type Problems } from '../../forms/validation.util';
import { FormActions } from '../../ui/form-actions';
import { CheckboxField, TextField } from '../../ui/field';
import { WEBHOOK_EVENTS } from './webhook-events';

export function WebhookForm({
  onCreated,
  onDone,
}: {
  onCreated: (endpoint: WebhookEndpoint) => void;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [accountId, setAccountId] = useState('');
  const [description, setDescription] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const create = useMutation({
    mutationFn: webhooksApi.create,
    onSuccess: async (endpoint) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      onCreated(endpoint);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {
      url: httpUrl(url) ?? '',
      events: events.length === 0 ? 'Choose at least one event.' : '',
      description: description.length > 500 ? 'At most 500 characters.' : '',
    };
    setProblems(found);
    if (hasProblems(found)) return;
    create.mutate({
      url: url.trim(),
      events,
      ...(accountId.trim() ? { accountId: accountId.trim() } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="New webhook endpoint">
      <div className="form__grid">
        <TextField
          label="URL"
          name="url"
          type="url"
          value={url}
          onChange={setUrl}
          problem={problems['url'] || undefined}
          hint="Private addresses are refused unless the operator allows them."
        />
        <TextField
          label="Account id (empty: every account)"
          name="accountId"
          value={accountId}
          onChange={setAccountId}
        />
        <TextField
          label="Description"
          name="description"
          value={description}
          onChange={setDescription}
          problem={problems['description'] || undefined}
        />
      </div>
      <fieldset className="fieldset">
        <legend>Events</legend>
        <div className="checkbox-grid">
          {WEBHOOK_EVENTS.map((name) => (
            <CheckboxField
              key={name}
              label={name}
              checked={events.includes(name)}
              onChange={(checked) =>
                setEvents((all) => (checked ? [...all, name] : all.filter((entry) => entry !== name)))
              }
            />
          ))}
        </div>
        {problems['events'] && (
          <small className="field__problem" role="alert">
            {problems['events']}
          </small>
        )}
      </fieldset>
      <FormActions
        error={create.error}
        submitLabel="Create endpoint"
        busy={create.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
