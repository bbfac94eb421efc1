import { ApiProperty } from '@nestjs/swagger';
import { TASK_STATUSES } from '@gateway/tasks';
import { TaskMoneyView } from './task-money.view';

const OPTIONAL_TEXT = { type: String, nullable: true };
const TIME = { type: String, format: 'date-time' };
const OPTIONAL_TIME = { ...TIME, nullable: true };

/** A task as the admin task list shows it: its row's scalars and its money (never its request). */
export class AdminTaskView {
  @ApiProperty({ description: 'The task id, as its client sees it.' })
  id: string;

  @ApiProperty({ description: 'What the task makes: video, music, image, asset …', example: 'video' })
  kind: string;

  @ApiProperty({ description: 'Where the task is.', enum: TASK_STATUSES })
  status: string;

  @ApiProperty({ description: 'Progress the upstream reported, 0–100.' })
  progress: number;

  @ApiProperty({ description: 'The model asked for.' })
  model: string;

  @ApiProperty({ description: 'The account charged.' })
  accountId: string;

  @ApiProperty({ description: 'The key it was created with.' })
  keyId: string;

  @ApiProperty({ description: 'The channel it runs on; null before one was chosen.', ...OPTIONAL_TEXT })
  channelId: string | null;

  @ApiProperty({ description: 'Why it failed or who cancelled it and why.', ...OPTIONAL_TEXT })
  failureReason: string | null;

  @ApiProperty({
    description: 'Unfinished past its deadline: no worker has ended it (see GET /admin/tasks?stuck=true).',
  })
  stuck: boolean;

  @ApiProperty({
    description: 'When a worker gives up on it (its family’s deadline after creation).',
    ...TIME,
  })
  deadlineAt: string;

  @ApiProperty({ description: 'When it was created.', ...TIME })
  createdAt: string;

  @ApiProperty({ description: 'When its row was last written.', ...TIME })
  updatedAt: string;

  @ApiProperty({ description: 'When it completed; null otherwise.', ...OPTIONAL_TIME })
  completedAt: string | null;

  @ApiProperty({ description: 'Its money.', type: () => TaskMoneyView })
  money: TaskMoneyView;
}

/** One page of tasks, newest first; shaped as a page of accounts or logs is. */
export class TaskPageView {
  @ApiProperty({ description: 'The tasks.', type: () => AdminTaskView, isArray: true })
  items: AdminTaskView[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', type: String, nullable: true })
  nextCursor: string | null;
}
