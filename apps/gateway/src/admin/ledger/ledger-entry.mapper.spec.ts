import { toLedgerEntryView } from './ledger-entry.mapper';

describe('toLedgerEntryView', () => {
  it('writes the id and amount as exact strings and keeps absent fields null', () => {
    const view = toLedgerEntryView({
      id: 9_007_199_254_740_993n,
      kind: 'credit',
      amount: 9_007_199_254_740_995n,
      idempotencyKey: 'credit:payment-1',
      requestId: null,
      note: null,
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
    });
    expect(view).toEqual({
      id: '9007199254740993',
      kind: 'credit',
      amountMicros: '9007199254740995',
      idempotencyKey: 'credit:payment-1',
      requestId: null,
      taskId: null,
      note: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('names the task whose hold a capture settled', () => {
    const view = toLedgerEntryView(
      {
        id: 1n,
        kind: 'capture',
        amount: 5n,
        idempotencyKey: 'capture:req_1',
        requestId: 'req_1',
        note: null,
        createdAt: new Date(0),
      },
      'video_1',
    );
    expect(view).toMatchObject({ requestId: 'req_1', taskId: 'video_1' });
  });
});
