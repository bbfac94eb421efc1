import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { channelsApi } from '../api/admin.api';
import type { Channel, ChannelTestResult } from '../api/admin.types';
import { clientPaging } from '../hooks/list-paging';
import { useClientPages } from '../hooks/use-client-pages';
import { Badge } from '../ui/badge';
import { ConfirmButton } from '../ui/confirm-button';
import { TextField } from '../ui/field';
import { ListPage, Toolbar } from '../ui/list-page';
import { PageHeader, Panel } from '../ui/page-header';
import { ChannelForm } from './channels/channel-form';

function recentErrors(channel: Channel): string {
  const recent = channel.recentErrors;
  if (recent === undefined) return '—';
  if (recent.requests === 0) return `none in ${recent.windowMinutes} min`;
  return `${recent.errors}/${recent.requests} (${Math.round(recent.errorRate * 100)}%)`;
}

function testSummary(result: ChannelTestResult): string {
  if (result.ok === null) return `Skipped: ${result.skipped ?? 'no call made'}`;
  if (result.ok)
    return `OK in ${result.latencyMs ?? '?'} ms with ${result.model ?? '?'} (${result.capability})`;
  return `Failed${result.status ? ` (HTTP ${result.status})` : ''}: ${result.error?.kind ?? 'error'}: ${result.error?.message ?? ''}`;
}

export function ChannelsPage() {
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: ['channels'], queryFn: channelsApi.list, refetchInterval: 30_000 });
  const [editing, setEditing] = useState<Channel | 'new' | undefined>();
  const [filter, setFilter] = useState('');
  const [tests, setTests] = useState<Record<string, ChannelTestResult | Error>>({});

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['channels'] });
  const toggle = useMutation({
    mutationFn: (channel: Channel) =>
      channelsApi.update(channel.id, { status: channel.status === 'enabled' ? 'disabled' : 'enabled' }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (channel: Channel) => channelsApi.remove(channel.id),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (channel: Channel) => channelsApi.test(channel.id),
    onSuccess: (result, channel) => setTests((all) => ({ ...all, [channel.id]: result })),
    onError: (error, channel) => setTests((all) => ({ ...all, [channel.id]: error })),
  });

  const needle = filter.trim().toLowerCase();
  const matching = (channels.data ?? []).filter(
    (channel) =>
      needle === '' ||
      channel.name.toLowerCase().includes(needle) ||
      channel.type.includes(needle) ||
      channel.models.some(({ model }) => model.toLowerCase().includes(needle)),
  );
  const pages = useClientPages(matching);

  return (
    <>
      <PageHeader
        title="Channels"
        intro="Upstream connections: type, models, priority, circuit state and recent errors. Secrets are write-only."
        actions={
          <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
            New channel
          </button>
        }
      />
      {editing !== undefined && (
        <Panel title={editing === 'new' ? 'New channel' : `Edit ${editing.name}`} id="channel-form">
          <ChannelForm
            key={editing === 'new' ? 'new' : editing.id}
            channel={editing === 'new' ? undefined : editing}
            onDone={() => setEditing(undefined)}
          />
        </Panel>
      )}
      <ListPage
        label="Channels"
        filters={
          <Toolbar>
            <TextField
              label="Filter by name, type or model"
              type="search"
              value={filter}
              onChange={setFilter}
            />
          </Toolbar>
        }
        error={channels.error ?? toggle.error ?? remove.error}
        loading={channels.isPending}
        loadingText="Loading channels…"
        rows={channels.data ? pages.visible : undefined}
        emptyText="No channel yet: create one to route traffic."
        columns={
          <>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Models</th>
            <th scope="col" className="num">
              Priority
            </th>
            <th scope="col" className="num">
              Polls/s
            </th>
            <th scope="col">Status</th>
            <th scope="col">Circuit</th>
            <th scope="col">Recent errors</th>
            <th scope="col">Actions</th>
          </>
        }
        renderRow={(channel) => {
          const result = tests[channel.id];
          return (
            <tr key={channel.id} data-channel={channel.name}>
              <td>
                <strong>{channel.name}</strong>
                <div className="muted small">{channel.baseUrl}</div>
                {result !== undefined && (
                  <div
                    className={`small ${result instanceof Error || result.ok === false ? 'text-bad' : 'text-ok'}`}
                    role="status"
                  >
                    {result instanceof Error ? `Test refused: ${result.message}` : testSummary(result)}
                  </div>
                )}
              </td>
              <td>{channel.type}</td>
              <td className="models-cell" title={channel.models.map(({ model }) => model).join(', ')}>
                {channel.models
                  .slice(0, 3)
                  .map(({ model }) => model)
                  .join(', ')}
                {channel.models.length > 3 ? ` +${channel.models.length - 3}` : ''}
              </td>
              <td className="num">{channel.priority}</td>
              <td className="num" title="Ceiling on task polls per second">
                {channel.pollsPerSecond ?? '—'}
              </td>
              <td>
                <Badge value={channel.status} />
              </td>
              <td>{channel.circuit ? <Badge value={channel.circuit.state} /> : '—'}</td>
              <td>{recentErrors(channel)}</td>
              <td className="actions">
                <button
                  type="button"
                  className="button"
                  aria-label={`Edit ${channel.name}`}
                  onClick={() => setEditing(channel)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button"
                  aria-label={`Test ${channel.name}`}
                  disabled={test.isPending && test.variables?.id === channel.id}
                  onClick={() => test.mutate(channel)}
                >
                  Test
                </button>
                <button
                  type="button"
                  className="button"
                  aria-label={`${channel.status === 'enabled' ? 'Disable' : 'Enable'} ${channel.name}`}
                  onClick={() => toggle.mutate(channel)}
                >
                  {channel.status === 'enabled' ? 'Disable' : 'Enable'}
                </button>
                <ConfirmButton
                  label="Delete"
                  confirmLabel={`Delete ${channel.name}`}
                  onConfirm={() => remove.mutate(channel)}
                />
              </td>
            </tr>
          );
        }}
        paging={clientPaging(pages)}
      />
    </>
  );
}
