import { HoldService, SettlementService } from '@gateway/billing';
import { startAdminApp, type AdminApp, type AdminReply } from './testing/admin-app.fixture';

/**
 * The admin routes over an account's books: listing and searching accounts, the ledger, debits and
 * the audit, against real Postgres.
 */
let admin: AdminApp;

beforeAll(async () => {
  admin = await startAdminApp();
});
afterAll(() => admin?.close());

async function createAccount(name: string, overdraftLimitMicros = '0'): Promise<string> {
  const reply = await admin.call('POST', '/admin/accounts', { name, overdraftLimitMicros });
  expect(reply.status).toBe(201);
  return reply.body['id'] as string;
}

async function credit(accountId: string, amountMicros: string, idempotencyKey: string): Promise<void> {
  const reply = await admin.call('POST', `/admin/accounts/${accountId}/credits`, {
    amountMicros,
    idempotencyKey,
  });
  expect(reply.status).toBe(200);
}

/** Follows nextCursor from the first page to the last; answers every page's items. */
async function allPages(
  path: string,
): Promise<{ pages: Record<string, unknown>[][]; items: Record<string, unknown>[] }> {
  const pages: Record<string, unknown>[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const reply: AdminReply = await admin.call(
      'GET',
      cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`,
    );
    expect(reply.status).toBe(200);
    pages.push(reply.body['items'] as Record<string, unknown>[]);
    cursor = reply.body['nextCursor'] as string | null;
  } while (cursor !== null);
  return { pages, items: pages.flat() };
}

function refusal(reply: AdminReply): { status: number; param: string | undefined } {
  return { status: reply.status, param: reply.body.error?.param };
}

describe('GET /admin/accounts', () => {
  const names = ['Shelf 100% Alpha', 'shelf 1000 beta', 'SHELF a_b', 'shelf axb', 'Shelf back\\slash'];
  const ids: string[] = [];

  beforeAll(async () => {
    for (const name of names) ids.push(await createAccount(name));
  });

  it('pages every account newest first, as GET /admin/accounts/{id} shows it, without gaps or repeats', async () => {
    const { pages, items } = await allPages('/admin/accounts?search=shelf&limit=2');
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(items.map((item) => item['id'])).toEqual([...ids].reverse());
    // The single account adds its live governance figures (`current`), which a page leaves out: they
    // cost a Redis and a Postgres read per account.
    const { current, ...configured } = (await admin.call('GET', `/admin/accounts/${ids[0]}`)).body;
    expect(current).toBeDefined();
    expect(items.at(-1)).toEqual(configured);
  });

  it('breaks ties of the creation time by id, so accounts created in the same millisecond all appear once', async () => {
    const createdAt = new Date('2020-01-01T00:00:00.000Z');
    const twins = ['acct_twin_c', 'acct_twin_a', 'acct_twin_b'];
    for (const id of twins)
      await admin.prisma.account.create({ data: { id, name: `twin ${id}`, createdAt } });
    const { items } = await allPages('/admin/accounts?search=twin&limit=1');
    expect(items.map((item) => item['id'])).toEqual(['acct_twin_c', 'acct_twin_b', 'acct_twin_a']);
  });

  it('searches names ignoring case, with % and _ matching only themselves', async () => {
    const found = async (search: string) =>
      (
        (await admin.call('GET', `/admin/accounts?search=${encodeURIComponent(search)}`)).body['items'] as {
          name: string;
        }[]
      ).map((item) => item.name);
    expect(await found('SHELF A')).toEqual(['shelf axb', 'SHELF a_b']);
    expect(await found('alpHA')).toEqual(['Shelf 100% Alpha']);
    expect(await found('%')).toEqual(['Shelf 100% Alpha']);
    expect(await found('0%')).toEqual(['Shelf 100% Alpha']);
    expect(await found('a_b')).toEqual(['SHELF a_b']);
    expect(await found('\\')).toEqual(['Shelf back\\slash']);
    expect(await found('nobody-has-this-name')).toEqual([]);
  });

  it('answers a page of the default size when no limit is given', async () => {
    for (let index = 0; index < 52; index += 1) await createAccount(`bulk ${index}`);
    const first = await admin.call('GET', '/admin/accounts');
    expect((first.body['items'] as unknown[]).length).toBe(50);
    expect(first.body['nextCursor']).toEqual(expect.any(String));
  });

  it.each([
    ['a limit of 0', 'limit=0', 'limit'],
    ['a limit above 200', 'limit=201', 'limit'],
    ['a huge limit', 'limit=99999999999999999999999', 'limit'],
    ['a fractional limit', 'limit=1.5', 'limit'],
    ['a limit that is not a number', 'limit=ten', 'limit'],
    ['a made-up cursor', 'cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['a log cursor', `cursor=${Buffer.from('42').toString('base64url')}`, 'cursor'],
    [
      'a cursor whose id holds NUL',
      `cursor=${Buffer.from('["2026-01-01T00:00:00.000Z","a\\u0000"]').toString('base64url')}`,
      'cursor',
    ],
    [
      'a cursor of a year Postgres cannot store',
      `cursor=${Buffer.from('["+275760-09-13T00:00:00.000Z","a"]').toString('base64url')}`,
      'cursor',
    ],
    ['a search holding NUL', 'search=a%00b', 'search'],
    ['an empty search', 'search=', 'search'],
    ['a search longer than a name', `search=${'x'.repeat(201)}`, 'search'],
    ['an unknown parameter', 'name=shelf', 'name'],
  ])('refuses %s with a 400 naming the field', async (_case, query, param) => {
    expect(refusal(await admin.call('GET', `/admin/accounts?${query}`))).toEqual({ status: 400, param });
  });
});

describe('POST /admin/accounts/{id}/debits', () => {
  it('debits once per idempotency key; a replay answers the same entry and changes nothing', async () => {
    const accountId = await createAccount('debited');
    await credit(accountId, '1000000', 'debited-top-up');
    const debit = {
      amountMicros: '250000',
      idempotencyKey: 'correction-1',
      note: 'credited twice by mistake',
    };

    const first = await admin.call('POST', `/admin/accounts/${accountId}/debits`, debit);
    const replay = await admin.call('POST', `/admin/accounts/${accountId}/debits`, debit);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      applied: true,
      entry: {
        kind: 'debit',
        amountMicros: '250000',
        idempotencyKey: 'debit:correction-1',
        requestId: null,
        taskId: null,
        note: 'credited twice by mistake',
      },
      account: { id: accountId, balanceMicros: '750000', availableMicros: '750000' },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...first.body, applied: false });
    expect((await admin.call('GET', `/admin/accounts/${accountId}`)).body['balanceMicros']).toBe('750000');
  });

  it('answers the key reused with another amount, note or account with a 409 and changes nothing', async () => {
    const accountId = await createAccount('conflicted');
    const other = await createAccount('other');
    await credit(accountId, '1000', 'conflicted-top-up');
    await credit(other, '1000', 'other-top-up');
    const debit = { amountMicros: '10', idempotencyKey: 'correction-2' };
    expect((await admin.call('POST', `/admin/accounts/${accountId}/debits`, debit)).status).toBe(200);

    for (const [target, body] of [
      [accountId, { ...debit, amountMicros: '11' }],
      [accountId, { ...debit, note: 'changed my mind' }],
      [other, debit],
    ] as const) {
      const reply = await admin.call('POST', `/admin/accounts/${target}/debits`, body);
      expect({ ...refusal(reply), code: reply.body.error?.code }).toEqual({
        status: 409,
        param: 'idempotencyKey',
        code: 'idempotency_conflict',
      });
    }
    expect((await admin.call('GET', `/admin/accounts/${accountId}`)).body['balanceMicros']).toBe('990');
    expect((await admin.call('GET', `/admin/accounts/${other}`)).body['balanceMicros']).toBe('1000');
  });

  it('goes below zero within the overdraft limit and refuses a debit beyond it with a 409 naming amountMicros', async () => {
    const accountId = await createAccount('overdrawn', '500');
    await credit(accountId, '100', 'overdrawn-top-up');

    const beyond = await admin.call('POST', `/admin/accounts/${accountId}/debits`, {
      amountMicros: '601',
      idempotencyKey: 'too-far',
    });
    expect(refusal(beyond)).toEqual({ status: 409, param: 'amountMicros' });
    expect(beyond.body.error?.message).toContain('overdraftLimitMicros');

    const within = await admin.call('POST', `/admin/accounts/${accountId}/debits`, {
      amountMicros: '600',
      idempotencyKey: 'to-the-limit',
    });
    expect(within.body).toMatchObject({ applied: true, account: { balanceMicros: '-500' } });
  });

  it.each([
    ['a negative amount', { amountMicros: '-5', idempotencyKey: 'k' }, 'amountMicros'],
    ['a zero amount', { amountMicros: '0', idempotencyKey: 'k' }, 'amountMicros'],
    ['a fractional amount', { amountMicros: '1.5', idempotencyKey: 'k' }, 'amountMicros'],
    ['a fractional number', { amountMicros: 1.5, idempotencyKey: 'k' }, 'amountMicros'],
    ['an amount beyond int8', { amountMicros: '9223372036854775808', idempotencyKey: 'k' }, 'amountMicros'],
    ['an amount in exponent form', { amountMicros: '1e6', idempotencyKey: 'k' }, 'amountMicros'],
    ['no idempotency key', { amountMicros: '1' }, 'idempotencyKey'],
    ['an empty idempotency key', { amountMicros: '1', idempotencyKey: '' }, 'idempotencyKey'],
    ['a NUL in the key', { amountMicros: '1', idempotencyKey: 'k\u0000' }, 'idempotencyKey'],
    ['a NUL in the note', { amountMicros: '1', idempotencyKey: 'k', note: 'n\u0000' }, 'note'],
    ['an unknown field', { amountMicros: '1', idempotencyKey: 'k', force: true }, 'force'],
  ])('refuses %s with a 400 naming the field', async (_case, body, param) => {
    const accountId = await createAccount('hostile');
    expect(refusal(await admin.call('POST', `/admin/accounts/${accountId}/debits`, body))).toEqual({
      status: 400,
      param,
    });
  });

  it('answers 404 for an unknown account and 400 for an id holding NUL', async () => {
    const debit = { amountMicros: '1', idempotencyKey: 'nobody' };
    expect(refusal(await admin.call('POST', '/admin/accounts/acct_nobody/debits', debit)).status).toBe(404);
    expect(refusal(await admin.call('POST', '/admin/accounts/acct_%00/debits', debit))).toEqual({
      status: 400,
      param: 'id',
    });
  });
});

describe('GET /admin/accounts/{id}/ledger', () => {
  it('pages every row newest first with its kind, amount, key, request, task and note', async () => {
    const accountId = await createAccount('ledgered');
    await credit(accountId, '5000', 'ledgered-top-up');
    const holds = new HoldService(admin.pool);
    const settlements = new SettlementService(admin.pool);
    for (const requestId of ['req_ledger_text', 'req_ledger_task']) {
      await holds.take({
        requestId,
        accountId,
        keyId: 'key_ledger',
        model: 'omega-text-1',
        route: '/v1/chat/completions',
        amount: 1000n,
        ttlMs: 60_000,
      });
    }
    await admin.prisma.task.create({
      data: {
        id: 'video_ledger_1',
        kind: 'video',
        keyId: 'key_ledger',
        accountId,
        model: 'omega-video-1',
        request: {},
        holdRequestId: 'req_ledger_task',
        deadlineAt: new Date(Date.now() + 3_600_000),
      },
    });
    const log = { route: '/v1/chat/completions', httpStatus: 200, endReason: 'completed', latencyMs: 1 };
    const usage = { inputTokens: 1, outputTokens: 1, attempts: 1 };
    await settlements.settle({
      requestId: 'req_ledger_text',
      captureMicros: 300n,
      log: { ...log, ...usage },
    });
    await settlements.settle({
      requestId: 'req_ledger_task',
      captureMicros: 700n,
      log: { ...log, ...usage },
    });
    await admin.call('POST', `/admin/accounts/${accountId}/debits`, {
      amountMicros: '1',
      idempotencyKey: 'ledgered-fix',
      note: 'rounding',
    });

    const { pages, items } = await allPages(`/admin/accounts/${accountId}/ledger?limit=3`);

    expect(pages.map((page) => page.length)).toEqual([3, 1]);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'debit',
        amountMicros: '1',
        idempotencyKey: 'debit:ledgered-fix',
        note: 'rounding',
      }),
      expect.objectContaining({
        kind: 'capture',
        amountMicros: '700',
        requestId: 'req_ledger_task',
        taskId: 'video_ledger_1',
        note: null,
      }),
      expect.objectContaining({
        kind: 'capture',
        amountMicros: '300',
        requestId: 'req_ledger_text',
        taskId: null,
      }),
      expect.objectContaining({
        kind: 'credit',
        amountMicros: '5000',
        idempotencyKey: 'credit:ledgered-top-up',
      }),
    ]);
    const account = await admin.call('GET', `/admin/accounts/${accountId}`);
    expect(account.body['balanceMicros']).toBe(String(5000 - 700 - 300 - 1));
    expect(
      items.every(
        (item) => typeof item['id'] === 'string' && !Number.isNaN(Date.parse(item['createdAt'] as string)),
      ),
    ).toBe(true);
  });

  it('answers an account without rows with an empty last page', async () => {
    const accountId = await createAccount('empty');
    expect((await admin.call('GET', `/admin/accounts/${accountId}/ledger`)).body).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it.each([
    ['a limit above 200', 'limit=201', 'limit'],
    ['a negative limit', 'limit=-1', 'limit'],
    ['a made-up cursor', 'cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['a cursor of a negative id', `cursor=${Buffer.from('-5').toString('base64url')}`, 'cursor'],
    ['a cursor holding NUL', 'cursor=%00', 'cursor'],
    ['an unknown parameter', 'kind=credit', 'kind'],
  ])('refuses %s with a 400 naming the field', async (_case, query, param) => {
    const accountId = await createAccount('ledger-hostile');
    expect(refusal(await admin.call('GET', `/admin/accounts/${accountId}/ledger?${query}`))).toEqual({
      status: 400,
      param,
    });
  });

  it('answers 404 for an unknown account', async () => {
    const reply = await admin.call('GET', '/admin/accounts/acct_nobody/ledger');
    expect({ ...refusal(reply), code: reply.body.error?.code }).toEqual({
      status: 404,
      param: null,
      code: 'not_found',
    });
  });
});

describe('GET /admin/audit', () => {
  it('finds the books of every account balanced, debits and captures included', async () => {
    const report = await admin.call('GET', '/admin/audit');
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true, findings: [] });
    const totals = report.body['totals'] as Record<string, string | number>;
    const accounts = await admin.prisma.account.findMany();
    expect(totals['accounts']).toBe(accounts.length);
    expect(totals['accountsBalanced']).toBe(accounts.length);
    expect(totals['balanceMicros']).toBe(accounts.reduce((sum, row) => sum + row.balance, 0n).toString());
    expect(
      BigInt(totals['creditsMicros'] as string) -
        BigInt(totals['capturesMicros'] as string) -
        BigInt(totals['debitsMicros'] as string),
    ).toBe(BigInt(totals['balanceMicros'] as string));
    expect(BigInt(totals['debitsMicros'] as string)).toBeGreaterThan(0n);
    expect(Date.parse(report.body['checkedAt'] as string)).not.toBeNaN();
  });

  it('reports a balance that no longer equals its ledger, and an account beyond its overdraft', async () => {
    const accountId = await createAccount('tampered');
    await credit(accountId, '10', 'tampered-top-up');
    // As a bug writing the balance outside the ledger would leave it (the ledger itself refuses edits).
    await admin.pool.query('UPDATE accounts SET balance = -3 WHERE id = $1', [accountId]);
    try {
      const report = await admin.call('GET', '/admin/audit');
      expect(report.body['ok']).toBe(false);
      expect(report.body['findings']).toEqual([
        expect.objectContaining({ kind: 'balance_mismatch', accountId, expected: '10', actual: '-3' }),
        expect.objectContaining({ kind: 'beyond_overdraft', accountId, expected: '0', actual: '-3' }),
      ]);
    } finally {
      await admin.pool.query('UPDATE accounts SET balance = 10 WHERE id = $1', [accountId]);
    }
    expect((await admin.call('GET', '/admin/audit')).body['ok']).toBe(true);
  });
});

describe('GET /admin/logs by account and request', () => {
  beforeAll(async () => {
    const rows = [
      { requestId: 'req_logs_a1', accountId: 'acct_logs_a' },
      { requestId: 'req_logs_b1', accountId: 'acct_logs_b' },
      { requestId: 'req_logs_a2', accountId: 'acct_logs_a' },
    ];
    for (const row of rows) {
      await admin.prisma.requestLog.create({
        data: {
          ...row,
          route: '/v1/chat/completions',
          httpStatus: 200,
          endReason: 'completed',
          latencyMs: 1,
        },
      });
    }
  });

  const requestIds = async (query: string) =>
    ((await admin.call('GET', `/admin/logs?${query}`)).body['items'] as { requestId: string }[]).map(
      (item) => item.requestId,
    );

  it("filters by the account charged and by the gateway's request id", async () => {
    expect(await requestIds('accountId=acct_logs_a')).toEqual(['req_logs_a2', 'req_logs_a1']);
    expect(await requestIds('requestId=req_logs_b1')).toEqual(['req_logs_b1']);
    expect(await requestIds('accountId=acct_logs_a&requestId=req_logs_b1')).toEqual([]);
    expect(await requestIds('requestId=req_nobody')).toEqual([]);
  });

  it.each([
    ['accountId=acct_%00', 'accountId'],
    ['requestId=req_%00', 'requestId'],
    ['requestId=', 'requestId'],
    [`accountId=${'a'.repeat(201)}`, 'accountId'],
  ])('refuses %s with a 400 naming the field', async (query, param) => {
    expect(refusal(await admin.call('GET', `/admin/logs?${query}`))).toEqual({ status: 400, param });
  });
});
