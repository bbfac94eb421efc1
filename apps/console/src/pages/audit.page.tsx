import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { figuresApi } from '../api/admin.api';
import { microsToUnits } from '../format/money.util';
import { formatTime } from '../format/time.util';
import { Badge } from '../ui/badge';
import { DetailsList } from '../ui/details-list';
import { ErrorBanner } from '../ui/error-banner';
import { PageHeader, Panel } from '../ui/page-header';

const TOTAL_LABELS: [string, string][] = [
  ['balanceMicros', 'Σ balance'],
  ['heldMicros', 'Σ held'],
  ['creditsMicros', 'Σ credits'],
  ['capturesMicros', 'Σ captures'],
  ['debitsMicros', 'Σ debits'],
  ['openHoldsMicros', 'Σ open holds'],
  ['openLeasesMicros', 'Σ open leases'],
  ['overageMicros', 'Σ overage'],
];

/** The ledger audit: run on demand (its cost grows with the ledger), never on a timer. */
export function AuditPage() {
  const audit = useQuery({ queryKey: ['audit'], queryFn: figuresApi.audit, staleTime: Infinity });
  const report = audit.data;
  return (
    <>
      <PageHeader
        title="Audit"
        intro="Balances equal the ledger sums, every hold settled once, overage accounted for: the books checked, account by account."
        actions={
          <button
            type="button"
            className="button"
            onClick={() => void audit.refetch()}
            disabled={audit.isFetching}
          >
            {audit.isFetching ? 'Auditing…' : 'Run the audit again'}
          </button>
        }
      />
      <ErrorBanner error={audit.error} />
      {audit.isPending && <p className="muted">Reading every account…</p>}
      {report && (
        <>
          <Panel title="Result" id="audit-result">
            <p>
              <Badge value={report.ok ? 'ok' : 'failed'} />{' '}
              {report.ok ? 'The books balance.' : `${report.findings.length} finding(s).`}{' '}
              <span className="muted">Checked {formatTime(report.checkedAt)}.</span>
            </p>
            <DetailsList
              entries={[
                [
                  'Accounts',
                  `${report.totals['accountsBalanced'] ?? '?'} of ${report.totals['accounts'] ?? '?'} balanced`,
                ],
                ...TOTAL_LABELS.map(([field, label]): [string, string] => [
                  label,
                  microsToUnits(String(report.totals[field] ?? '')),
                ]),
              ]}
            />
          </Panel>
          {report.findings.length > 0 && (
            <Panel title="Findings" id="audit-findings">
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Kind</th>
                      <th scope="col">Account</th>
                      <th scope="col">Expected</th>
                      <th scope="col">Actual</th>
                      <th scope="col">What</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.findings.map((finding, index) => (
                      <tr key={`${finding.accountId}-${finding.kind}-${index}`}>
                        <td>{finding.kind.replaceAll('_', ' ')}</td>
                        <td>
                          <Link to={`/accounts?account=${encodeURIComponent(finding.accountId)}`}>
                            {finding.accountId}
                          </Link>
                        </td>
                        <td className="num">{finding.expected}</td>
                        <td className="num">{finding.actual}</td>
                        <td>{finding.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Panel>
          )}
        </>
      )}
    </>
  );
}
