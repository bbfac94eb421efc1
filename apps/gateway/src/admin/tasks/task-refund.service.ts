import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { CreditKeyConflictError, CreditService } from '@gateway/billing';
import type { Task } from '@gateway/db';
import { LOGGER } from '../../platform/infrastructure/tokens';
import { RefundTaskDto } from './task-action.dto';
import type { TaskRefundResultView } from './task-action.view';
import { TaskDetailService } from './task-detail.service';
import { taskNotRefundable } from './task-errors';
import { refundCreditKey, TaskMoneyReader } from './task-money.reader';

/**
 * Gives a completed task's capture back as a credit, once per task: the credit's key is
 * `refund:<task id>` whatever the caller sends, so the ledger's unique key refuses a second refund even
 * from two operators at once. The caller's idempotencyKey is written into the ledger note, so a retry
 * with the same key is told what the first did (200, applied: false) and any other repeat is a 409.
 * The credit moves balance and ledger in one statement, so the audit stays balanced.
 */
@Injectable()
export class TaskRefundService {
  constructor(
    private readonly credits: CreditService,
    private readonly money: TaskMoneyReader,
    private readonly details: TaskDetailService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async refund(id: string, input: RefundTaskDto): Promise<TaskRefundResultView> {
    const task = await this.details.find(id);
    if (task.status !== 'completed') throw taskNotRefundable(id, `it is ${task.status}, not completed`);
    const before = await this.money.moneyOfOne(task);
    if (before.refundNote !== null) return this.repeated(task, input.idempotencyKey);
    if (before.view.holdStatus !== 'settled') {
      throw taskNotRefundable(id, 'its settlement is not recorded yet; try again in a moment');
    }
    const amountMicros = BigInt(before.view.capturedMicros);
    if (amountMicros === 0n) throw taskNotRefundable(id, 'it captured nothing');
    const { applied } = await this.credits
      .credit({
        accountId: task.accountId,
        amountMicros,
        idempotencyKey: refundCreditKey(id),
        note: refundNote(id, input.idempotencyKey) + input.reason,
      })
      .catch((error: unknown) => {
        // Another refund of this task, with another reason or key, committed during this one: the note
        // tells below whether it was this caller's.
        if (error instanceof CreditKeyConflictError) return { applied: false };
        throw error;
      });
    // Not applied: another refund of this task committed during this one.
    if (!applied) return this.repeated(task, input.idempotencyKey);
    this.logger.info(
      { taskId: id, by: 'admin', reason: input.reason, amountMicros: amountMicros.toString() },
      'task refunded by an operator',
    );
    return { applied: true, amountMicros: amountMicros.toString(), task: await this.details.detailOf(task) };
  }

  private async repeated(task: Task, idempotencyKey: string | undefined): Promise<TaskRefundResultView> {
    const money = await this.money.moneyOfOne(task);
    const replay =
      idempotencyKey !== undefined &&
      (money.refundNote ?? '').startsWith(refundNote(task.id, idempotencyKey));
    if (!replay) throw taskNotRefundable(task.id, 'it was refunded already');
    return {
      applied: false,
      amountMicros: money.view.refundedMicros,
      task: await this.details.detailOf(task),
    };
  }
}

/**
 * The start of a refund's ledger note. Keys hold no space, so `<key>: ` ends the key unambiguously and
 * a note starts with this only when its refund was made under the same key.
 */
function refundNote(taskId: string, idempotencyKey: string | undefined): string {
  const key = idempotencyKey === undefined ? '' : `, idempotency key ${idempotencyKey}`;
  return `admin refund of task ${taskId}${key}: `;
}
