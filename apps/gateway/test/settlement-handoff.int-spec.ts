import { SettlementService } from '@gateway/billing';
import { createPgPool } from '@gateway/db/pg-pool';
import {
  fromSettlementJob,
  QUEUE_NAMES,
  TEXT_SETTLEMENT_JOB_NAME,
  textSettlementJobId,
  type TextSettlementJob,
} from '@gateway/tasks/queues';
import { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { SettlementRecorder } from '../src/pipeline/settlement-recorder';
import { GatewayHarness, NATIVE_GENERATE_PATH, NATIVE_HELLO_BODY, type TextDemo } from './gateway-harness';

/**
 * The gateway's side of a settlement the database refuses: the batch goes to worker-text's durable
 * queue (whose consumer worker-text's own spec covers), and the job settles the request exactly once.
 */
describe('a settlement the database refuses', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  let queue: Queue<TextSettlementJob>;
  let pool: Pool;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
    queue = new Queue(QUEUE_NAMES.textSettlement, {
      connection: { url: harness.config.redisUrl },
      prefix: harness.config.redisPrefix,
    });
    pool = createPgPool(harness.config.databaseUrl, 2);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await pool.end();
    await harness.close();
  });

  it('is handed to worker-text through the queue, with everything needed to settle it once', async () => {
    // Without its log table the settlement statement fails as a whole, as in a database outage.
    await harness.query('ALTER TABLE request_logs RENAME TO request_logs_away');
    let requestId: string;
    try {
      const answer = await harness.request('POST', NATIVE_GENERATE_PATH, {
        body: NATIVE_HELLO_BODY,
        headers: { 'x-vendor-api-key': demo.key },
      });
      expect(answer.status).toBe(200);
      requestId = answer.headers.get('x-request-id') ?? '';
      await harness.app.app.get(SettlementRecorder).drain();
    } finally {
      await harness.query('ALTER TABLE request_logs_away RENAME TO request_logs');
    }

    const job = await queue.getJob(textSettlementJobId(requestId));
    expect(job?.name).toBe(TEXT_SETTLEMENT_JOB_NAME);
    const settlement = fromSettlementJob(job!.data);
    expect(settlement).toMatchObject({
      requestId,
      log: { endReason: 'completed', httpStatus: 200, channelId: demo.kappaChannelId },
      lease: { accountId: demo.accountId, keyId: demo.keyId },
    });
    expect(settlement.captureMicros).toBeGreaterThan(0n);
    expect(harness.logs.some((line) => line.includes('handing off to worker-text'))).toBe(true);
    expect(await harness.ledgerTotals(demo.accountId)).toMatchObject({ capture: 0n });

    // What worker-text does with the job: the capture lands once, however often the job runs.
    const settlements = new SettlementService(pool);
    expect((await settlements.settleMany([settlement])).appliedRequestIds).toEqual([requestId]);
    expect((await settlements.settleMany([settlement])).appliedRequestIds).toEqual([]);
    expect(await harness.ledgerTotals(demo.accountId)).toMatchObject({ capture: settlement.captureMicros });
  });
});
