import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { webhooksApi } from '../../api/webhooks.api';
import { formatTime } from '../../format/time.util';
import { useClientPages } from '../../hooks/use-client-pages';
import { Badge } from '../../ui/badge';
import { ErrorBanner } from '../../ui/error-banner';
import { Pager } from '../../ui/pager';

/** Each delivery attempt of one endpoint: event, status code, latency, error; redeliver on demand. */
export function DeliveriesTable({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['webhooks', endpointId, 'deliveries'],
    queryFn: () => webhooksApi.deliveries(endpointId),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => webhooksApi.redeliver(endpointId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', endpointId, 'deliveries'] }),
  });
  const pages = useClientPages(deliveries.data ?? []);
  return (
    <>
      <ErrorBanner error={deliveries.error ?? redeliver.error} />
      {deliveries.data?.length === 0 && <p className="muted">No delivery yet.</p>}
      {pages.visible.length > 0 && (
        <div className="table-wrap">
          <table className="table" aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Task</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Attempts
                </th>
                <th scope="col" className="num">
                  Last HTTP
                </th>
                <th scope="col" className="num">
                  Latency
                </th>
                <th scope="col">Error</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {pages.visible.map((delivery) => {
                const attempts = delivery.attempts ?? [];
                const last = attempts.at(-1);
                return (
                  <tr key={delivery.id}>
                    <td>{formatTime(delivery.createdAt)}</td>
                    <td>{delivery.eventType ?? '—'}</td>
                    <td className="mono small">{delivery.subjectId ?? '—'}</td>
                    <td>{delivery.status ? <Badge value={delivery.status} /> : '—'}</td>
                    <td className="num">{attempts.length}</td>
                    <td className="num">{last?.statusCode ?? '—'}</td>
                    <td className="num">{last ? `${last.latencyMs} ms` : '—'}</td>
                    <td className="small">{last?.error ?? ''}</td>
                    <td>
                      <button
                        type="button"
                        className="button"
                        aria-label={`Redeliver ${delivery.eventType ?? 'event'} ${delivery.id}`}
                        onClick={() => redeliver.mutate(delivery.id)}
                      >
                        Redeliver
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Deliveries"
        page={pages.page}
        pageCount={pages.pageCount}
        hasPrevious={pages.page > 1}
        hasNext={pages.page < pages.pageCount}
        onPrevious={() => pages.setPage(pages.page - 1)}
        onNext={() => pages.setPage(pages.page + 1)}
      />
    </>
  );
}
