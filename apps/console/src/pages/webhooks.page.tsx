import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminApiError } from '../api/admin-api.error';
import type { WebhookEndpoint } from '../api/admin.types';
import { webhooksApi } from '../api/webhooks.api';
import { formatTime } from '../format/time.util';
import { Badge } from '../ui/badge';
import { ConfirmButton } from '../ui/confirm-button';
import { CopyButton } from '../ui/copy-button';
import { ErrorBanner } from '../ui/error-banner';
import { PageHeader, Panel } from '../ui/page-header';
import { DeliveriesTable } from './webhooks/deliveries-table';
import { WebhookForm } from './webhooks/webhook-form';

function SecretOnce({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  if (!endpoint.secret) return null;
  return (
    <section className="panel panel--highlight" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">Signing secret of {endpoint.url}</h2>
      <p>Shown once: the receiver verifies every delivery with it (Standard Webhooks).</p>
      <div className="secret-row">
        <input
          className="secret-row__value"
          readOnly
          value={endpoint.secret}
          aria-label="Signing secret (shown once)"
        />
        <CopyButton text={endpoint.secret} label="Copy the signing secret" />
      </div>
      <button type="button" className="button" onClick={onClose}>
        I have stored it
      </button>
    </section>
  );
}

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const endpoints = useQuery({ queryKey: ['webhooks'], queryFn: webhooksApi.list });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<WebhookEndpoint>();
  const [open, setOpen] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const remove = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => webhooksApi.remove(endpoint.id),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) =>
      webhooksApi.setStatus(endpoint.id, endpoint.status === 'enabled' ? 'disabled' : 'enabled'),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => webhooksApi.rotate(endpoint.id),
    onSuccess: async (rotated, endpoint) => {
      setSecret({ ...endpoint, ...rotated });
      await refresh();
    },
  });

  const unavailable = endpoints.error instanceof AdminApiError && endpoints.error.notFound;
  if (unavailable) {
    return (
      <>
        <PageHeader title="Webhooks" intro="Signed pushes of task outcomes to the operator's endpoints." />
        <div className="banner banner--info" role="status">
          Webhooks are not available on this gateway: it has no /admin/webhooks route. They appear here once
          the gateway is upgraded.
        </div>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Webhooks"
        intro="Endpoints that receive signed events when tasks end, and every delivery attempt."
        actions={
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New endpoint
          </button>
        }
      />
      {secret && <SecretOnce endpoint={secret} onClose={() => setSecret(undefined)} />}
      {creating && (
        <Panel title="New endpoint" id="webhook-form">
          <WebhookForm onCreated={setSecret} onDone={() => setCreating(false)} />
        </Panel>
      )}
      <ErrorBanner error={endpoints.error ?? remove.error ?? rotate.error ?? toggle.error} />
      {endpoints.data?.length === 0 && <p className="muted">No endpoint yet.</p>}
      {(endpoints.data?.length ?? 0) > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Account</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data?.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td className="mono small">{endpoint.url}</td>
                  <td className="small">{endpoint.events.join(', ')}</td>
                  <td>{endpoint.accountId ?? 'every account'}</td>
                  <td>
                    {endpoint.status ? <Badge value={endpoint.status} /> : '—'}
                    {endpoint.disabledReason && <div className="small muted">{endpoint.disabledReason}</div>}
                  </td>
                  <td>{formatTime(endpoint.createdAt)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="button"
                      aria-expanded={open === endpoint.id}
                      onClick={() => setOpen(open === endpoint.id ? undefined : endpoint.id)}
                    >
                      Deliveries
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={`Rotate the secret of ${endpoint.url}`}
                      onClick={() => rotate.mutate(endpoint)}
                    >
                      Rotate secret
                    </button>
                    {endpoint.status !== undefined && (
                      <button
                        type="button"
                        className="button"
                        aria-label={`${endpoint.status === 'enabled' ? 'Disable' : 'Enable'} ${endpoint.url}`}
                        onClick={() => toggle.mutate(endpoint)}
                      >
                        {endpoint.status === 'enabled' ? 'Disable' : 'Enable'}
                      </button>
                    )}
                    <ConfirmButton
                      label="Delete"
                      confirmLabel={`Delete ${endpoint.url}`}
                      onConfirm={() => remove.mutate(endpoint)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && (
        <Panel title="Deliveries" id="webhook-deliveries">
          <DeliveriesTable endpointId={open} />
        </Panel>
      )}
    </>
  );
}
