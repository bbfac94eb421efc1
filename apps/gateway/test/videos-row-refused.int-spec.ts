import { GatewayHarness } from './gateway-harness';
import { ALLOW_TASK_ROWS, refuseTaskRows } from './task-row-refusal';
import { newVideoAccount, seedVideoDemo } from './video-demo';

/**
 * Creates whose task row cannot be written after their hold was taken: each is answered 503 and its
 * hold released, and rows written in the same statement (task rows arriving together share one) are
 * not taken down with a refused one.
 */
describe('video creates whose task rows Postgres refuses', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await seedVideoDemo(harness);
  });
  afterAll(() => harness.close());
  afterEach(() => harness.query(ALLOW_TASK_ROWS));

  /** `count` creates at once from a new account, each prompt naming its index. */
  async function createsAtOnce(count: number, promptOf: (index: number) => string) {
    const caller = await newVideoAccount(harness);
    const answers = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        harness.request<{ id?: string; error?: { code: string } }>('POST', '/v1/videos', {
          body: { model: 'delta-2', prompt: promptOf(index), seconds: '4' },
          headers: { authorization: `Bearer ${caller.key}` },
        }),
      ),
    );
    return { caller, answers };
  }

  /** The account's holds by status, and what it holds. */
  async function booksOf(accountId: string) {
    const holds = await harness.query<{ status: string; count: string }>(
      'select status, count(*)::text as count from holds where account_id = $1 group by status',
      [accountId],
    );
    const [account] = await harness.query<{ held: string }>('select held::text from accounts where id = $1', [
      accountId,
    ]);
    return {
      holds: Object.fromEntries(holds.map((row) => [row.status, Number(row.count)])),
      held: account.held,
    };
  }

  it('answers 503 to every create of a statement that fails, and releases every hold', async () => {
    await harness.query(refuseTaskRows('P0001', 'every row'));
    const { caller, answers } = await createsAtOnce(12, (index) => `every row ${index}`);
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(503));
    expect(answers[0].body.error?.code).toBe('service_unavailable');
    expect(await booksOf(caller.accountId)).toEqual({ holds: { settled: 12 }, held: '0' });
  });

  it('writes the other rows of a statement that one row fails, and releases only that row hold', async () => {
    await harness.query(refuseTaskRows('23514', 'refuse me'));
    const { caller, answers } = await createsAtOnce(8, (index) =>
      index % 3 === 1 ? `refuse me ${index}` : `keep me ${index}`,
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 503, 200, 200, 503, 200, 200, 503]);
    const written = await harness.query<{ id: string }>('select id from tasks where account_id = $1', [
      caller.accountId,
    ]);
    expect(written.map((row) => row.id).sort()).toEqual(
      answers
        .filter((answer) => answer.status === 200)
        .map((answer) => answer.body.id)
        .sort(),
    );
    expect((await booksOf(caller.accountId)).holds).toEqual({ open: 5, settled: 3 });
  });
});
