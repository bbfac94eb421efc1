import { ApiProperty } from '@nestjs/swagger';
import { AdminTaskView } from './task.view';

/** What happened to a task, and when, as its row, hold and ledger record it. */
export const TASK_TIMELINE_EVENTS = [
  'created',
  'completed',
  'hold_settled',
  'captured',
  'refunded',
  'request_cleared',
  'deleted',
  'last_written',
] as const;
export type TaskTimelineEvent = (typeof TASK_TIMELINE_EVENTS)[number];

export class TaskTimelineEntryView {
  @ApiProperty({
    description:
      'created; completed; hold_settled (its money settled once); captured; refunded; request_cleared ' +
      '(the retention sweep removed its inputs); deleted (its owner deleted it); last_written (the last ' +
      'status change or claim: the row keeps no time per status).',
    enum: TASK_TIMELINE_EVENTS,
  })
  event: TaskTimelineEvent;

  @ApiProperty({ description: 'When.', type: String, format: 'date-time' })
  at: string;
}

/** A task with what an operator needs to follow it upstream and through its money. */
export class TaskDetailView extends AdminTaskView {
  @ApiProperty({
    description:
      'The upstream’s handle of the task as stored (its upstream id and what the wire needs to ask ' +
      'about it; no credential); null before the upstream accepted it.',
    type: 'object',
    additionalProperties: true,
    nullable: true,
  })
  upstreamHandle: Record<string, unknown> | null;

  @ApiProperty({
    description:
      'Upstream attempts its settlement recorded (the request log of its hold); null before it settled.',
    type: Number,
    nullable: true,
  })
  attempts: number | null;

  @ApiProperty({ description: 'The task that was remixed into this one.', type: String, nullable: true })
  remixedFromId: string | null;

  @ApiProperty({
    description:
      'Where the console previews its output (GET /admin/tasks/{id}/content, same origin, opened by the ' +
      'session cookie or the admin token); null until it has completed with an output.',
    type: String,
    nullable: true,
    example: '/admin/tasks/vid_abc/content',
  })
  contentUrl: string | null;

  @ApiProperty({ description: 'Events oldest first.', type: () => TaskTimelineEntryView, isArray: true })
  timeline: TaskTimelineEntryView[];
}
