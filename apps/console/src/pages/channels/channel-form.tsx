import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { channelsApi, type ChannelInput } from '../../api/admin.api';
import type { Channel } from '../../api/admin.types';
import {
  channelModels,
  hasProblems,
  httpUrl,
  jsonObject,
  optionalInteger,
  pollsPerSecond,
  requiredName,
  type Problems,
} from '../../forms/validation.util';
import { FormActions } from '../../ui/form-actions';
import { SelectField, TextAreaField, TextField } from '../../ui/field';
import { CHANNEL_TYPES, secretHint } from './channel-types';

const modelsText = (channel?: Channel) =>
  (channel?.models ?? [])
    .map(({ model, upstreamModel }) => (upstreamModel ? `${model}=${upstreamModel}` : model))
    .join('\n');

/**
 * Create a channel, or edit one. The secret is write-only: an edit shows the masked value and sends a
 * secret only when a new one is typed (rotation).
 */
export function ChannelForm({ channel, onDone }: { channel?: Channel; onDone: () => void }) {
  const queryClient = useQueryClient();
  const editing = channel !== undefined;
  const [type, setType] = useState(channel?.type ?? 'kappa');
  const [name, setName] = useState(channel?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(channel?.baseUrl ?? '');
  const [secret, setSecret] = useState('');
  const [models, setModels] = useState(modelsText(channel));
  const [settings, setSettings] = useState(
    channel && Object.keys(channel.settings).length > 0 ? JSON.stringify(channel.settings, null, 2) : '',
  );
  const [priority, setPriority] = useState(String(channel?.priority ?? 0));
  const [weight, setWeight] = useState(String(channel?.weight ?? 1));
  const [pollRate, setPollRate] = useState(
    channel?.pollsPerSecond === null || channel?.pollsPerSecond === undefined
      ? ''
      : String(channel.pollsPerSecond),
  );
  const [status, setStatus] = useState<'enabled' | 'disabled'>(channel?.status ?? 'enabled');
  const [problems, setProblems] = useState<Problems>({});

  const save = useMutation({
    mutationFn: (body: ChannelInput) =>
      editing ? channelsApi.update(channel.id, body) : channelsApi.create(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['channels'] });
      onDone();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedModels = channelModels(models);
    const parsedSettings = jsonObject(settings);
    const parsedPriority = optionalInteger(priority, 'Priority', { min: -2_147_483_648 });
    const parsedWeight = optionalInteger(weight, 'Weight', { min: 1 });
    const parsedPollRate = pollsPerSecond(pollRate);
    const found: Problems = {
      name: requiredName(name, 'Name') ?? '',
      baseUrl: httpUrl(baseUrl) ?? '',
      secret:
        !editing && secret.trim() === ''
          ? 'The secret is required for a new channel.'
          : secret.length > 4096
            ? 'At most 4096 characters.'
            : '',
      models: parsedModels.problem ?? '',
      settings: parsedSettings.problem ?? '',
      priority: parsedPriority.problem ?? '',
      weight: parsedWeight.problem ?? '',
      pollsPerSecond: parsedPollRate.problem ?? '',
    };
    setProblems(found);
    if (hasProblems(found)) return;
    const body: ChannelInput = {
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      models: parsedModels.value,
      settings: parsedSettings.value,
      priority: parsedPriority.value ?? 0,
      weight: parsedWeight.value ?? 1,
      pollsPerSecond: parsedPollRate.value,
      status,
    };
    if (!editing) body.type = type;
    if (secret !== '') body.secret = secret;
    save.mutate(body);
  };

  const shown = (field: string) => problems[field] || undefined;
  return (
    <form
      className="form"
      onSubmit={submit}
      noValidate
      aria-label={editing ? `Edit channel ${channel.name}` : 'New channel'}
    >
      <div className="form__grid">
        <SelectField
          label="Type"
          name="type"
          value={type}
          onChange={setType}
          options={CHANNEL_TYPES.map(({ type: value }) => value)}
          hint={editing ? 'The type of an existing channel stays.' : 'The wire protocol of the upstream.'}
        />
        <TextField label="Name" name="name" value={name} onChange={setName} problem={shown('name')} />
        <TextField
          label="Base URL"
          name="baseUrl"
          type="url"
          value={baseUrl}
          onChange={setBaseUrl}
          problem={shown('baseUrl')}
        />
        <TextField
          label={editing ? 'New secret (leave empty to keep)' : 'Secret'}
          name="secret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={setSecret}
          problem={shown('secret')}
          hint={
            editing
              ? `Stored: ${channel.secretMasked}. Write-only: ${secretHint(type)}.`
              : `Write-only, stored encrypted: ${secretHint(type)}.`
          }
        />
        <TextField
          label="Priority"
          name="priority"
          type="number"
          value={priority}
          onChange={setPriority}
          problem={shown('priority')}
          hint="Higher is tried first."
        />
        <TextField
          label="Weight"
          name="weight"
          type="number"
          value={weight}
          onChange={setWeight}
          problem={shown('weight')}
          hint="Share among equal priorities."
        />
        <TextField
          label="Polls per second"
          name="pollsPerSecond"
          type="text"
          value={pollRate}
          onChange={setPollRate}
          problem={shown('pollsPerSecond')}
          hint="Ceiling on this channel's task polls across every worker (0.01 to 10000); empty for none."
        />
        <SelectField
          label="Status"
          name="status"
          value={status}
          onChange={(value) => setStatus(value as 'enabled' | 'disabled')}
          options={['enabled', 'disabled']}
        />
      </div>
      <TextAreaField
        label="Models"
        name="models"
        value={models}
        onChange={setModels}
        problem={shown('models')}
        hint="One per line; model=upstream-model when the upstream calls it otherwise."
      />
      <TextAreaField
        label="Settings (JSON)"
        name="settings"
        value={settings}
        onChange={setSettings}
        problem={shown('settings')}
        rows={3}
        hint="Per-type settings; secret settings are write-only and shown masked."
      />
      <FormActions
        error={save.error}
        submitLabel={editing ? 'Save channel' : 'Create channel'}
        busy={save.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
