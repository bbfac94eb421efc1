import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountsApi } from '../../api/admin.api';
import { microsToUnits } from '../../format/money.util';
import { formatTime } from '../../format/time.util';
import { useCursorPages } from '../../hooks/use-cursor-pages';
import { ErrorBanner } from '../../ui/error-banner';
import { Pager } from '../../ui/pager';

const SIGN: Record<string, string> = { credit: '+', capture: '−', debit: '−' };

/** An account's ledger, newest first, a page at a time. */
export function LedgerTable({ accountId }: { accountId: string }) {
  const paging = useCursorPages();
  const ledger = useQuery({
    queryKey: ['ledger', accountId, paging.cursor],
    queryFn: () => accountsApi.ledger(accountId, { limit: 25, cursor: paging.cursor }),
  });
  return (
    <>
      <ErrorBanner error={ledger.error} />
      {ledger.data?.items.length === 0 && <p className="muted">No money has moved yet.</p>}
      {(ledger.data?.items.length ?? 0) > 0 && (
        <div className="table-wrap">
          <table className="table" aria-label="Ledger">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  Amount (units)
                </th>
                <th scope="col">Idempotency key</th>
                <th scope="col">Request / task</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data?.items.map((entry) => (
                <tr key={entry.id} data-kind={entry.kind}>
                  <td>{formatTime(entry.createdAt)}</td>
                  <td>{entry.kind}</td>
                  <td className="num">
                    {SIGN[entry.kind] ?? ''}
                    {microsToUnits(entry.amountMicros)}
                  </td>
                  <td className="mono small">{entry.idempotencyKey}</td>
                  <td className="small">
                    {entry.taskId ? (
                      <Link to={`/tasks?task=${encodeURIComponent(entry.taskId)}`}>{entry.taskId}</Link>
                    ) : null}
                    {entry.taskId && entry.requestId ? <br /> : null}
                    {entry.requestId ? (
                      <Link to={`/logs?requestId=${encodeURIComponent(entry.requestId)}`}>
                        {entry.requestId}
                      </Link>
                    ) : null}
                  </td>
                  <td>{entry.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Ledger"
        page={paging.pageNumber}
        hasPrevious={paging.pageNumber > 1}
        hasNext={Boolean(ledger.data?.nextCursor)}
        onPrevious={paging.previous}
        onNext={() => ledger.data?.nextCursor && paging.next(ledger.data.nextCursor)}
      />
    </>
  );
}
