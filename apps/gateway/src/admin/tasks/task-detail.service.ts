import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient, Task } from '@gateway/db';
import { PRISMA } from '../../platform/infrastructure/tokens';
import type { TaskDetailView } from './task-detail.view';
import { taskNotFound } from './task-errors';
import { TaskMoneyReader } from './task-money.reader';
import { toTaskDetailView } from './task-view.mapper';

/** One task as an operator follows it: its upstream handle, its attempts, its timeline and its money. */
@Injectable()
export class TaskDetailService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly money: TaskMoneyReader,
  ) {}

  async get(id: string): Promise<TaskDetailView> {
    return this.detailOf(await this.find(id));
  }

  /** The task's row, deleted by its owner or not (an operator still sees it); 404 when there is none. */
  async find(id: string): Promise<Task> {
    const task = await this.prisma.task.findUnique({ where: { id } });
    if (!task) throw taskNotFound(id);
    return task;
  }

  async detailOf(task: Task): Promise<TaskDetailView> {
    const [money, log] = await Promise.all([
      this.money.moneyOfOne(task),
      task.holdRequestId === null
        ? null
        : this.prisma.requestLog.findUnique({
            where: { requestId: task.holdRequestId },
            select: { attempts: true },
          }),
    ]);
    return toTaskDetailView(task, money, log?.attempts ?? null, new Date());
  }
}
