import type { PrismaClient, Task } from '@gateway/db';
import type { TaskMoneyView } from './task-money.view';

/** The credit key of a task's refund, one per task: CreditService stores it as `credit:refund:<id>`. */
export function refundCreditKey(taskId: string): string {
  return `refund:${taskId}`;
}

const refundLedgerKey = (taskId: string): string => `credit:${refundCreditKey(taskId)}`;

/** A task's money with the times it moved, for the timeline. */
export interface TaskMoney {
  view: TaskMoneyView;
  holdSettledAt: Date | null;
  capturedAt: Date | null;
  refundedAt: Date | null;
  /** The refund's ledger note, which names the refund's idempotency key. */
  refundNote: string | null;
}

const NO_MONEY: TaskMoney = {
  view: { holdStatus: null, heldMicros: '0', capturedMicros: '0', releasedMicros: '0', refundedMicros: '0' },
  holdSettledAt: null,
  capturedAt: null,
  refundedAt: null,
  refundNote: null,
};

/**
 * Reads the money of a page of tasks in three statements: their hold rows, the capture rows of those
 * holds (a capture's request_id is the hold's), and their refund credits (by their unique key).
 */
export class TaskMoneyReader {
  constructor(private readonly prisma: Pick<PrismaClient, 'hold' | 'ledgerEntry'>) {}

  async moneyOf(tasks: readonly Task[]): Promise<Map<string, TaskMoney>> {
    const holdIds = tasks.flatMap((task) => (task.holdRequestId === null ? [] : [task.holdRequestId]));
    const [holds, captures, refunds] = await Promise.all([
      this.prisma.hold.findMany({ where: { requestId: { in: holdIds } } }),
      this.prisma.ledgerEntry.findMany({ where: { requestId: { in: holdIds }, kind: 'capture' } }),
      this.prisma.ledgerEntry.findMany({
        where: { idempotencyKey: { in: tasks.map((task) => refundLedgerKey(task.id)) } },
      }),
    ]);
    const money = new Map<string, TaskMoney>();
    for (const task of tasks) {
      const hold = holds.find((row) => row.requestId === task.holdRequestId);
      const captured = captures.filter((row) => row.requestId === task.holdRequestId);
      const refund = refunds.find((row) => row.idempotencyKey === refundLedgerKey(task.id));
      if (!hold && captured.length === 0 && !refund) {
        money.set(task.id, NO_MONEY);
        continue;
      }
      const held = hold?.amount ?? 0n;
      const capturedMicros = captured.reduce((total, row) => total + row.amount, 0n);
      // An image task captures the images it returned, which may cost more than its hold assumed.
      const released = hold?.status === 'settled' && held > capturedMicros ? held - capturedMicros : 0n;
      money.set(task.id, {
        view: {
          holdStatus: hold ? (hold.status === 'settled' ? 'settled' : 'open') : null,
          heldMicros: held.toString(),
          capturedMicros: capturedMicros.toString(),
          releasedMicros: released.toString(),
          refundedMicros: (refund?.amount ?? 0n).toString(),
        },
        holdSettledAt: hold?.settledAt ?? null,
        capturedAt: captured[0]?.createdAt ?? null,
        refundedAt: refund?.createdAt ?? null,
        refundNote: refund?.note ?? null,
      });
    }
    return money;
  }

  async moneyOfOne(task: Task): Promise<TaskMoney> {
    return (await this.moneyOf([task])).get(task.id) ?? NO_MONEY;
  }
}
