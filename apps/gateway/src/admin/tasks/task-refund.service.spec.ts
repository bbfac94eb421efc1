import { CreditKeyConflictError, type CreditService, type KeyedEntry } from '@gateway/billing';
import type { Task } from '@gateway/db';
import type { Logger } from 'pino';
import type { TaskDetailService } from './task-detail.service';
import type { TaskMoney, TaskMoneyReader } from './task-money.reader';
import { TaskRefundService } from './task-refund.service';

/**
 * Two refunds of one task racing: both read "not refunded", the loser's credit meets the winner's
 * `refund:<task id>` row. With another reason its note differs, so the credit reports a key conflict,
 * which the refund must still answer from the winner's note, never as a 500.
 */
describe('TaskRefundService, losing a race', () => {
  const task = { id: 'video_1', status: 'completed', accountId: 'acct_1' } as Task;
  const winner = `admin refund of task video_1, idempotency key ticket-1: first reason`;

  function refundsAfterLosing(): TaskRefundService {
    const money: TaskMoney[] = [
      { refundNote: null, view: { holdStatus: 'settled', capturedMicros: '5', refundedMicros: '0' } },
      { refundNote: winner, view: { holdStatus: 'settled', capturedMicros: '5', refundedMicros: '5' } },
    ] as TaskMoney[];
    const credits = {
      credit: () =>
        Promise.reject(new CreditKeyConflictError('refund:video_1', { note: winner } as KeyedEntry)),
    } as unknown as CreditService;
    const reader = { moneyOfOne: async () => money.shift() } as unknown as TaskMoneyReader;
    const details = { find: async () => task, detailOf: async () => ({}) } as unknown as TaskDetailService;
    return new TaskRefundService(credits, reader, details, { info: () => undefined } as unknown as Logger);
  }

  it('answers a retry under the winner’s key as a replay', async () => {
    await expect(
      refundsAfterLosing().refund(task.id, { reason: 'second reason', idempotencyKey: 'ticket-1' }),
    ).resolves.toMatchObject({ applied: false, amountMicros: '5' });
  });

  it('answers another key as already refunded (409)', async () => {
    await expect(
      refundsAfterLosing().refund(task.id, { reason: 'second reason', idempotencyKey: 'ticket-2' }),
    ).rejects.toMatchObject({ httpStatus: 409 });
  });
});
