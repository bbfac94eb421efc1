import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { logsApi } from '../api/admin.api';
import type { LogRow } from '../api/admin.types';
import { microsToUnits } from '../format/money.util';
import { formatTime, localInputToIso } from '../format/time.util';
import { hasProblems, type Problems } from '../forms/validation.util';
import { cursorPaging } from '../hooks/list-paging';
import { useCursorPages } from '../hooks/use-cursor-pages';
import { Badge } from '../ui/badge';
import { DetailsList } from '../ui/details-list';
import { TextField } from '../ui/field';
import { FilterBar, ListPage } from '../ui/list-page';
import { PageHeader, Panel } from '../ui/page-header';

const FILTERS = [
  ['requestId', 'Request id'],
  ['keyId', 'Key id'],
  ['accountId', 'Account id'],
  ['model', 'Model'],
  ['channelId', 'Channel id'],
  ['status', 'HTTP status'],
  ['endReason', 'End reason'],
] as const;
type FilterName = (typeof FILTERS)[number][0] | 'from' | 'to';

function LogDetail({ row, onClose }: { row: LogRow; onClose: () => void }) {
  return (
    <Panel title={`Request ${row.requestId}`} id="log-detail">
      <DetailsList
        entries={[
          ['Time', formatTime(row.createdAt)],
          ['Route', <code key="route">{row.route}</code>],
          ['Model', row.model],
          ['HTTP status', String(row.httpStatus)],
          ['End reason', row.endReason],
          ['Key', row.keyId],
          ['Account', row.accountId],
          ['Channel', row.channelId],
          ['Attempts', String(row.attempts)],
          ['Latency', `${row.latencyMs} ms`],
          ['Time to first byte', row.ttfbMs === null ? null : `${row.ttfbMs} ms`],
          ['Tokens in / out', `${row.inputTokens} / ${row.outputTokens}`],
          ['Images', String(row.imageCount)],
          ['Media seconds', String(row.mediaSeconds)],
          ['Cost (units)', microsToUnits(row.costMicros)],
          ['Overage (units)', microsToUnits(row.overageMicros)],
        ]}
      />
      <button type="button" className="button" onClick={onClose}>
        Close details
      </button>
    </Panel>
  );
}

export function LogsPage() {
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(params.entries()) as Partial<Record<FilterName, string>>;
  const [draft, setDraft] = useState<Partial<Record<FilterName, string>>>(() => ({
    ...applied,
    from: '',
    to: '',
  }));
  const [problems, setProblems] = useState<Problems>({});
  const [selected, setSelected] = useState<LogRow>();
  const paging = useCursorPages();
  const logs = useQuery({
    queryKey: ['logs', applied, paging.cursor],
    queryFn: () => logsApi.page({ ...applied, limit: 50, cursor: paging.cursor }),
  });

  const apply = () => {
    const found: Problems = {};
    const status = draft.status?.trim() ?? '';
    if (status !== '' && (!/^\d{3}$/.test(status) || Number(status) < 100 || Number(status) > 599))
      found['status'] = 'A status between 100 and 599.';
    const from = localInputToIso(draft.from ?? '');
    const to = localInputToIso(draft.to ?? '');
    if (from && to && from >= to) found['to'] = '"To" must be after "From".';
    setProblems(found);
    if (hasProblems(found)) return;
    const next: Record<string, string> = {};
    for (const [name] of FILTERS) {
      const value = draft[name]?.trim();
      if (value) next[name] = value;
    }
    if (from) next['from'] = from;
    if (to) next['to'] = to;
    paging.reset();
    setSelected(undefined);
    setParams(next);
  };

  return (
    <>
      <PageHeader
        title="Logs"
        intro="Every request: route, model, channel, outcome, latency, tokens and cost. Logs never hold payloads."
      />
      <ListPage
        label="Logs"
        caption="Request logs, newest first"
        filters={
          <FilterBar
            label="Log filters"
            onApply={apply}
            onClear={() => {
              setDraft({});
              paging.reset();
              setParams({});
            }}
          >
            {FILTERS.map(([name, label]) => (
              <TextField
                key={name}
                label={label}
                name={name}
                value={draft[name] ?? ''}
                onChange={(value) => setDraft((all) => ({ ...all, [name]: value }))}
                problem={problems[name] || undefined}
              />
            ))}
            <TextField
              label="From"
              name="from"
              type="datetime-local"
              value={draft.from ?? ''}
              onChange={(value) => setDraft((all) => ({ ...all, from: value }))}
            />
            <TextField
              label="To"
              name="to"
              type="datetime-local"
              value={draft.to ?? ''}
              onChange={(value) => setDraft((all) => ({ ...all, to: value }))}
              problem={problems['to'] || undefined}
            />
          </FilterBar>
        }
        error={logs.error}
        detail={selected && <LogDetail row={selected} onClose={() => setSelected(undefined)} />}
        rows={logs.data?.items}
        emptyText="No request matches."
        columns={
          <>
            <th scope="col">Time</th>
            <th scope="col">Route</th>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Status
            </th>
            <th scope="col">End</th>
            <th scope="col" className="num">
              Latency
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col">Details</th>
          </>
        }
        renderRow={(row) => (
          <tr key={row.requestId} data-route={row.route} data-model={row.model ?? ''}>
            <td>{formatTime(row.createdAt)}</td>
            <td className="mono small">{row.route}</td>
            <td>{row.model ?? '—'}</td>
            <td className="num">{row.httpStatus}</td>
            <td>
              <Badge value={row.endReason} />
            </td>
            <td className="num">{row.latencyMs} ms</td>
            <td className="num">{microsToUnits(row.costMicros)}</td>
            <td>
              <button
                type="button"
                className="button"
                aria-label={`Details of request ${row.requestId}`}
                onClick={() => setSelected(row)}
              >
                Details
              </button>
            </td>
          </tr>
        )}
        paging={cursorPaging(paging, logs.data?.nextCursor)}
      />
    </>
  );
}
