import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { accountsApi } from '../api/admin.api';
import type { Account } from '../api/admin.types';
import { microsToUnits } from '../format/money.util';
import { formatTime } from '../format/time.util';
import { useCursorPages } from '../hooks/use-cursor-pages';
import { DetailsList } from '../ui/details-list';
import { ErrorBanner } from '../ui/error-banner';
import { TextField } from '../ui/field';
import { PageHeader, Panel } from '../ui/page-header';
import { Pager } from '../ui/pager';
import { AccountForm } from './accounts/account-form';
import { LedgerTable } from './accounts/ledger-table';
import { MoneyForm } from './accounts/money-form';
import { currentSummary, limitsSummary } from './keys/limits.util';

function AccountDetail({ accountId }: { accountId: string }) {
  const account = useQuery({
    queryKey: ['accounts', 'one', accountId],
    queryFn: () => accountsApi.get(accountId),
  });
  const data: Account | undefined = account.data;
  return (
    <Panel title={data ? `Account ${data.name}` : 'Account'} id="account-detail">
      <ErrorBanner error={account.error} />
      {data && (
        <>
          <div className="stats">
            <div className="stat">
              <span className="stat__label">Balance</span>
              <span className="stat__value" data-testid="account-balance">
                {microsToUnits(data.balanceMicros)}
              </span>
            </div>
            <div className="stat">
              <span className="stat__label">Held</span>
              <span className="stat__value">{microsToUnits(data.heldMicros)}</span>
            </div>
            <div className="stat">
              <span className="stat__label">Available</span>
              <span className="stat__value">{microsToUnits(data.availableMicros)}</span>
            </div>
          </div>
          <DetailsList
            entries={[
              ['Id', <code key="id">{data.id}</code>],
              ['Overdraft limit', microsToUnits(data.overdraftLimitMicros)],
              ['Limits', limitsSummary(data.limits, data.budget)],
              ['Now', currentSummary(data.current)],
              ['Created', formatTime(data.createdAt)],
            ]}
          />
          <MoneyForm accountId={data.id} kind="credit" />
          <MoneyForm accountId={data.id} kind="debit" />
          <h3>Ledger</h3>
          <LedgerTable accountId={data.id} />
        </>
      )}
    </Panel>
  );
}

export function AccountsPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('account') ?? undefined;
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const paging = useCursorPages();
  const accounts = useQuery({
    queryKey: ['accounts', 'page', search, paging.cursor],
    queryFn: () => accountsApi.page({ limit: 25, cursor: paging.cursor, search }),
  });
  const select = (accountId?: string) => setParams(accountId ? { account: accountId } : {});
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    paging.reset();
    setSearch(searchText.trim());
  };

  return (
    <>
      <PageHeader
        title="Accounts"
        intro="Who pays: balance, held amounts, credits and debits, and every ledger row."
        actions={
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New account
          </button>
        }
      />
      {creating && (
        <Panel title="New account" id="account-form">
          <AccountForm
            onDone={(accountId) => {
              setCreating(false);
              if (accountId) select(accountId);
            }}
          />
        </Panel>
      )}
      <form className="toolbar" onSubmit={submitSearch} role="search">
        <TextField
          label="Search by name"
          type="search"
          name="search"
          value={searchText}
          onChange={setSearchText}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <ErrorBanner error={accounts.error} />
      {accounts.data?.items.length === 0 && <p className="muted">No account matches.</p>}
      {(accounts.data?.items.length ?? 0) > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Accounts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="num">
                  Balance
                </th>
                <th scope="col" className="num">
                  Held
                </th>
                <th scope="col" className="num">
                  Available
                </th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data?.items.map((account) => (
                <tr key={account.id} aria-selected={account.id === selected}>
                  <td>{account.name}</td>
                  <td className="num">{microsToUnits(account.balanceMicros)}</td>
                  <td className="num">{microsToUnits(account.heldMicros)}</td>
                  <td className="num">{microsToUnits(account.availableMicros)}</td>
                  <td>{formatTime(account.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      aria-label={`Open account ${account.name}`}
                      onClick={() => select(account.id)}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Accounts"
        page={paging.pageNumber}
        hasPrevious={paging.pageNumber > 1}
        hasNext={Boolean(accounts.data?.nextCursor)}
        onPrevious={paging.previous}
        onNext={() => accounts.data?.nextCursor && paging.next(accounts.data.nextCursor)}
      />
      {selected && <AccountDetail key={selected} accountId={selected} />}
    </>
  );
}
