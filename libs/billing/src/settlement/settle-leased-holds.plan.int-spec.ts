import { type BillingDatabase, openBillingDatabase } from '../testing/billing-database.fixture';
import { settleLeasedHoldsStatement } from './settle-holds.statement';

const LOGGED_REQUESTS = 20_000;
const ITEMS = 40;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/**
 * The function's own statements run inside plpgsql, where EXPLAIN cannot reach: auto_explain logs the
 * plan of each nested statement, and `client_min_messages = log` sends those log lines to this client.
 */
describe('settle_leased_holds probes the request log per item (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(2);
  });
  afterAll(() => billing?.close());

  // enable_nestloop = off stands in for statistics that misjudge the log's size: an anti-join would
  // then be planned as a hash join over the whole log; the probe cannot be.
  it('looks up each item in the unique index of a large request log, never reading the whole log', async () => {
    const accountId = await billing.fundedAccount(10_000_000_000n);
    // A request log grown with no ANALYZE after it, as between two autovacuum runs.
    await billing.pool.query(
      `INSERT INTO request_logs (request_id, key_id, account_id, model, route, http_status, end_reason,
                                 latency_ms, input_tokens, output_tokens, cost_micros, attempts, created_at)
       SELECT 'plan_logged_' || n, 'key_1', $1, 'model-a', '/v1/chat/completions', 200, 'completed', 1, 1, 1, 0, 1, now()
         FROM generate_series(1, ${LOGGED_REQUESTS}) AS n`,
      [accountId],
    );
    const items = Array.from({ length: ITEMS }, (_, index) => ({
      requestId: index % 2 === 0 ? `plan_logged_${index + 1}` : `plan_new_${index}`,
      captureMicros: 100,
      holdMicros: 100,
      leaseId: null,
      keyId: 'key_1',
      accountId,
      model: 'model-a',
      channelId: null,
      route: '/v1/chat/completions',
      httpStatus: 200,
      endReason: 'completed',
      latencyMs: 1,
      ttfbMs: null,
      inputTokens: 1,
      outputTokens: 1,
      attempts: 1,
    }));

    const client = await billing.pool.connect();
    const plans: PlanNode[] = [];
    const onNotice = (notice: { message?: string }) => {
      const text = notice.message ?? '';
      const start = text.indexOf('{');
      if (!text.includes('settle_leased_holds') && start < 0) return;
      try {
        plans.push((JSON.parse(text.slice(start)) as { Plan: PlanNode }).Plan);
      } catch {
        // A log line that is not a plan.
      }
    };
    client.on('notice', onNotice);
    try {
      await client.query("LOAD 'auto_explain'");
      await client.query(
        `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
         SET auto_explain.log_format = json; SET client_min_messages = log;
         SET enable_nestloop = off`,
      );
      const { rows } = await client.query<{ request_id: string }>(settleLeasedHoldsStatement.text, [
        JSON.stringify(items),
      ]);
      // Only the items not logged before are settled: the probe is the once-only guard.
      expect(rows.map((row) => row.request_id).sort()).toEqual(
        items
          .filter((_, index) => index % 2 === 1)
          .map((item) => item.requestId)
          .sort(),
      );
    } finally {
      client.off('notice', onNotice);
      await client
        .query('RESET client_min_messages; RESET auto_explain.log_min_duration; RESET enable_nestloop')
        .catch(() => undefined);
      client.release(true);
    }

    const logReads = plans
      .flatMap((plan) => [...nodesOf(plan)])
      .filter((node) => node['Relation Name'] === 'request_logs');
    expect(logReads.length).toBeGreaterThan(0);
    expect(logReads.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    expect(logReads.some((node) => node['Index Name'] === 'request_logs_request_id_key')).toBe(true);
  });
});
