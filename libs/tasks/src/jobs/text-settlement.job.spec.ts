import type { SettlementInput } from '@gateway/billing';
import {
  fromSettlementJob,
  textSettlementJobId,
  textSettlementJobOptions,
  toSettlementJob,
} from './text-settlement.job';

const settlement: SettlementInput = {
  requestId: 'req_01',
  captureMicros: 9_007_199_254_740_993n,
  log: {
    route: '/v1beta/models/generate',
    httpStatus: 200,
    endReason: 'completed',
    latencyMs: 812,
    ttfbMs: 120,
    inputTokens: 1200,
    outputTokens: 340,
    attempts: 1,
    channelId: 'chan_1',
  },
};

describe('text-settlement job payload', () => {
  it('survives JSON with micros beyond the safe integer range', () => {
    const payload = JSON.parse(JSON.stringify(toSettlementJob(settlement)));
    expect(payload.captureMicros).toBe('9007199254740993');
    expect(fromSettlementJob(payload)).toEqual(settlement);
  });

  it('carries a leased hold with its amount as a decimal string', () => {
    const leased: SettlementInput = {
      ...settlement,
      lease: {
        leaseId: 'lease_1',
        accountId: 'acct_1',
        keyId: 'key_1',
        model: 'kappa-2.0-flash',
        route: '/v1beta/models/generate',
        amount: 9_007_199_254_740_995n,
      },
    };
    const payload = JSON.parse(JSON.stringify(toSettlementJob(leased)));
    expect(payload.lease.amount).toBe('9007199254740995');
    expect(fromSettlementJob(payload)).toEqual(leased);
    expect(() => fromSettlementJob({ ...payload, lease: { ...payload.lease, amount: '-1' } })).toThrow(
      /lease without decimal amount/,
    );
  });

  it('refuses a payload without decimal micros', () => {
    for (const captureMicros of ['', '-5', '1.5', '1e6', '0x10', '007']) {
      expect(() => fromSettlementJob({ ...toSettlementJob(settlement), captureMicros })).toThrow(
        /captureMicros/,
      );
    }
  });

  it('refuses a payload without request id or log', () => {
    expect(() => fromSettlementJob({ ...toSettlementJob(settlement), requestId: '' })).toThrow(/request id/);
    const withoutLog = { ...toSettlementJob(settlement), log: null } as unknown as ReturnType<
      typeof toSettlementJob
    >;
    expect(() => fromSettlementJob(withoutLog)).toThrow(/no log/);
  });

  it('uses one job id per request, without the colon BullMQ refuses', () => {
    expect(textSettlementJobId('req_01')).toBe('settle-req_01');
    expect(textSettlementJobId('req:01')).not.toContain(':');
    expect(textSettlementJobId('req:01')).not.toBe(textSettlementJobId('req_01'));
    expect(textSettlementJobOptions('req_01')).toMatchObject({ jobId: 'settle-req_01', attempts: 10 });
  });
});
