import { GatewayHarness } from './gateway-harness';

interface GovernedView {
  id: string;
  limits: Record<string, number> | null;
  budget: { amountMicros: string; period: string } | null;
  allowedIps?: string[];
  current?: Record<string, unknown>;
}

/** The governance fields of the admin API: validation, PATCH semantics, and the current figures. */
describe('admin API: limits, budgets and allow-lists of keys and accounts', () => {
  let harness: GatewayHarness;
  let accountId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    accountId = await harness.createAccount(1_000_000n);
  });
  afterAll(() => harness?.close());

  it('creates a key with limits, a budget and allowed ranges, and shows them with the current figures', async () => {
    const created = await harness.createKey(accountId, {
      limits: { requestsPerMinute: 60, concurrentRequests: 2 },
      budget: { amountMicros: '5000000', period: 'week' },
      allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
    });
    const view = await harness.adminOk<GovernedView>('GET', `/admin/keys/${created.id}`);
    expect(view.limits).toEqual({ requestsPerMinute: 60, concurrentRequests: 2 });
    expect(view.budget).toEqual({ amountMicros: '5000000', period: 'week' });
    expect(view.allowedIps).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    expect(view.current).toEqual({
      requestsThisMinute: 0,
      tokensThisMinute: null,
      inFlight: 0,
      outstandingTasks: 0,
      budgetSpentMicros: '0',
      budgetResetsAt: expect.stringMatching(/T00:00:00\.000Z$/),
    });
  });

  it('PATCH changes the limits it names, null removes one or all, and a budget is replaced or removed', async () => {
    const { id } = await harness.createKey(accountId, {
      limits: { requestsPerMinute: 10, tokensPerMinute: 1000 },
    });
    let view = await harness.adminOk<GovernedView>('PATCH', `/admin/keys/${id}`, {
      limits: { tokensPerMinute: null, outstandingTasks: 3 },
      budget: { amountMicros: '100', period: 'total' },
    });
    expect(view.limits).toEqual({ requestsPerMinute: 10, outstandingTasks: 3 });
    expect(view.budget).toEqual({ amountMicros: '100', period: 'total' });
    view = await harness.adminOk<GovernedView>('PATCH', `/admin/keys/${id}`, {
      limits: null,
      budget: null,
      allowedIps: [],
    });
    expect(view.limits).toBeNull();
    expect(view.budget).toBeNull();
    expect(view.allowedIps).toEqual([]);
  });

  it('accounts take limits and a budget on POST and PATCH, and show their figures', async () => {
    const created = await harness.adminOk<GovernedView>('POST', '/admin/accounts', {
      name: 'governed',
      limits: { requestsPerMinute: 5 },
      budget: { amountMicros: '700', period: 'month' },
    });
    expect(created.limits).toEqual({ requestsPerMinute: 5 });
    const patched = await harness.adminOk<GovernedView>('PATCH', `/admin/accounts/${created.id}`, {
      limits: { outstandingTasks: 4 },
    });
    expect(patched.limits).toEqual({ requestsPerMinute: 5, outstandingTasks: 4 });
    expect(patched.budget).toEqual({ amountMicros: '700', period: 'month' });
    const view = await harness.adminOk<GovernedView>('GET', `/admin/accounts/${created.id}`);
    expect(view.current).toMatchObject({
      requestsThisMinute: 0,
      outstandingTasks: 0,
      budgetSpentMicros: '0',
    });
  });

  it.each([
    ['a zero limit', { limits: { requestsPerMinute: 0 } }, 'limits.requestsPerMinute'],
    ['a fractional limit', { limits: { concurrentRequests: 1.5 } }, 'limits.concurrentRequests'],
    ['a limit as a string', { limits: { tokensPerMinute: '100' } }, 'limits.tokensPerMinute'],
    ['an unknown limit', { limits: { requestsPerHour: 5 } }, 'requestsPerHour'],
    ['limits as a list', { limits: [1] }, 'limits'],
    ['a budget without a period', { budget: { amountMicros: '10' } }, 'budget.period'],
    ['a budget of another period', { budget: { amountMicros: '10', period: 'year' } }, 'budget.period'],
    ['a negative budget', { budget: { amountMicros: '-1', period: 'day' } }, 'budget.amountMicros'],
    [
      'a budget that is not a number',
      { budget: { amountMicros: '1e3', period: 'day' } },
      'budget.amountMicros',
    ],
    ['a range that is not one', { allowedIps: ['10.0.0.0/33'] }, 'allowedIps'],
    ['a host name as a range', { allowedIps: ['example.test'] }, 'allowedIps'],
    ['allowedIps that is not a list', { allowedIps: '10.0.0.0/8' }, 'allowedIps'],
  ])('refuses %s on a key with a 400 naming the field', async (_case, body, field) => {
    const created = await harness.admin<{ error: { message: string; param: string | null } }>(
      'POST',
      '/admin/keys',
      {
        accountId,
        name: 'bad',
        ...body,
      },
    );
    expect(created.status).toBe(400);
    expect(`${created.body.error.param ?? ''} ${created.body.error.message}`).toContain(field);
    const { id } = await harness.createKey(accountId);
    const patched = await harness.admin('PATCH', `/admin/keys/${id}`, body);
    expect(patched.status).toBe(400);
  });

  it('refuses allowedIps on an account (keys only)', async () => {
    const answer = await harness.admin('POST', '/admin/accounts', { name: 'x', allowedIps: ['10.0.0.0/8'] });
    expect(answer.status).toBe(400);
  });
});
