import type { SettlementLogInput } from './request-log.types';
import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';

const imageLog: SettlementLogInput = {
  route: '/v1/images/generations',
  channelId: 'chan_1',
  httpStatus: 200,
  endReason: 'completed',
  latencyMs: 900,
  inputTokens: 0,
  outputTokens: 0,
  imageCount: 3,
  mediaSeconds: 0,
  attempts: 1,
};

describe('settling row holds with media usage (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(4);
  });
  afterAll(() => billing?.close());

  async function rowHold(accountId: string, amount: bigint): Promise<string> {
    const requestId = nextRequestId();
    const taken = await billing.holds.take({
      requestId,
      accountId,
      keyId: 'key_1',
      model: 'draw-3',
      route: '/v1/images/generations',
      amount,
      ttlMs: 60_000,
    });
    expect(taken).toEqual({ ok: true });
    return requestId;
  }

  it('captures from a row hold once, and writes the image count and media seconds on the log row', async () => {
    const accountId = await billing.fundedAccount(100_000n);
    const requestId = await rowHold(accountId, 40_000n);
    const settlement = { requestId, captureMicros: 30_000n, log: { ...imageLog, mediaSeconds: 5 } };

    expect((await billing.settlements.settleRowHolds([settlement])).appliedRequestIds).toEqual([requestId]);
    expect((await billing.settlements.settleRowHolds([settlement])).appliedRequestIds).toEqual([]);

    expect(await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } })).toMatchObject({
      imageCount: 3,
      mediaSeconds: 5,
      costMicros: 30_000n,
    });
    const books = await billing.audit.auditAccount(accountId);
    expect(books).toMatchObject({ balanced: true, balance: 70_000n, held: 0n });
  });

  it('stores 0 images for logs that do not say, as text requests do not', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const requestId = await rowHold(accountId, 1_000n);
    const { imageCount: _images, mediaSeconds: _seconds, ...textLog } = imageLog;
    await billing.settlements.settleMany([{ requestId, captureMicros: 0n, log: textLog }]);
    const refusedId = nextRequestId();
    await billing.settlements.recordWithoutHold([{ ...textLog, requestId: refusedId, costMicros: 0n }]);

    for (const id of [requestId, refusedId]) {
      expect(await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId: id } })).toMatchObject({
        imageCount: 0,
        mediaSeconds: 0,
      });
    }
  });

  it('takes row settlements only: a leased hold does not type-check (npm run typecheck enforces it)', () => {
    const leased = {
      requestId: 'req_leased',
      captureMicros: 0n,
      log: imageLog,
      lease: { leaseId: 'lease_1', accountId: 'acc', keyId: 'key', model: 'm', route: 'r', amount: 1n },
    };
    // @ts-expect-error a leased hold is no RowHoldSettlement; this line fails to compile without the error.
    const settling = () => billing.settlements.settleRowHolds([leased]);
    expect(typeof settling).toBe('function');
  });
});
