import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountsApi, keysApi } from '../api/admin.api';
import type { CreatedKey, Key } from '../api/admin.types';
import { formatTime } from '../format/time.util';
import { clientPaging } from '../hooks/list-paging';
import { useClientPages } from '../hooks/use-client-pages';
import { Badge } from '../ui/badge';
import { ConfirmButton } from '../ui/confirm-button';
import { CopyButton } from '../ui/copy-button';
import { SelectField } from '../ui/field';
import { ListPage, Toolbar } from '../ui/list-page';
import { PageHeader, Panel } from '../ui/page-header';
import { KeyForm } from './keys/key-form';
import { limitsSummary } from './keys/limits.util';

/** The whole key, once: after this panel is closed nobody can see it again, the gateway included. */
function ShownOnce({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <section className="panel panel--highlight" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Key {created.name} created</h2>
      <p>Copy it now: it is shown only this once and is stored only as a hash.</p>
      <div className="secret-row">
        <input
          className="secret-row__value"
          readOnly
          value={created.key}
          aria-label="New key (shown once)"
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={created.key} label="Copy the new key" />
      </div>
      <button type="button" className="button" onClick={onClose}>
        I have stored it
      </button>
    </section>
  );
}

export function KeysPage() {
  const queryClient = useQueryClient();
  const [accountFilter, setAccountFilter] = useState('');
  const [form, setForm] = useState<Key | 'new' | undefined>();
  const [created, setCreated] = useState<CreatedKey>();
  const keys = useQuery({
    queryKey: ['keys', accountFilter],
    queryFn: () => keysApi.list(accountFilter || undefined),
  });
  const accounts = useQuery({
    queryKey: ['accounts', 'choices'],
    queryFn: () => accountsApi.page({ limit: 100 }),
  });
  const accountName = (id: string) => accounts.data?.items.find((account) => account.id === id)?.name ?? id;

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['keys'] });
  const toggle = useMutation({
    mutationFn: (key: Key) =>
      keysApi.update(key.id, { status: key.status === 'active' ? 'disabled' : 'active' }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (key: Key) => keysApi.remove(key.id), onSuccess: refresh });
  const pages = useClientPages(keys.data ?? []);

  return (
    <>
      <PageHeader
        title="Keys"
        intro="Inference keys: who may call, which models, until when, within which limits and budget."
        actions={
          <button type="button" className="button button--primary" onClick={() => setForm('new')}>
            New key
          </button>
        }
      />
      {created && <ShownOnce created={created} onClose={() => setCreated(undefined)} />}
      {form !== undefined && (
        <Panel title={form === 'new' ? 'New key' : `Edit ${form.name}`} id="key-form">
          <KeyForm
            key={form === 'new' ? 'new' : form.id}
            keyToEdit={form === 'new' ? undefined : form}
            onCreated={setCreated}
            onDone={() => setForm(undefined)}
          />
        </Panel>
      )}
      <ListPage
        label="Keys"
        filters={
          <Toolbar>
            <SelectField
              label="Account"
              value={accountFilter}
              onChange={setAccountFilter}
              options={[
                { value: '', label: 'Every account' },
                ...(accounts.data?.items ?? []).map((account) => ({
                  value: account.id,
                  label: account.name,
                })),
              ]}
            />
          </Toolbar>
        }
        error={keys.error ?? toggle.error ?? remove.error}
        loading={keys.isPending}
        loadingText="Loading keys…"
        rows={keys.data ? pages.visible : undefined}
        emptyText="No key here yet."
        columns={
          <>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Account</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Models</th>
            <th scope="col">Limits</th>
            <th scope="col">Actions</th>
          </>
        }
        renderRow={(key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{accountName(key.accountId)}</td>
            <td>
              <Badge value={key.status} />
            </td>
            <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
            <td>{key.allowedModels.length === 0 ? 'all' : key.allowedModels.join(', ')}</td>
            <td>{limitsSummary(key.limits, key.budget)}</td>
            <td className="actions">
              <button
                type="button"
                className="button"
                aria-label={`Edit key ${key.name}`}
                onClick={() => setForm(key)}
              >
                Edit
              </button>
              <button
                type="button"
                className="button"
                aria-label={`${key.status === 'active' ? 'Disable' : 'Enable'} key ${key.name}`}
                onClick={() => toggle.mutate(key)}
              >
                {key.status === 'active' ? 'Disable' : 'Enable'}
              </button>
              <ConfirmButton
                label="Delete"
                confirmLabel={`Delete key ${key.name}`}
                onConfirm={() => remove.mutate(key)}
              />
            </td>
          </tr>
        )}
        paging={clientPaging(pages)}
      />
    </>
  );
}
