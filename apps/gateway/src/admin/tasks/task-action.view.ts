import { ApiProperty } from '@nestjs/swagger';
import { TaskDetailView } from './task-detail.view';

/** What an operator's cancel did. */
export class TaskCancelResultView {
  @ApiProperty({
    description:
      'true when the upstream never took the task or its wire stopped it; false when the task was ' +
      'cancelled here while the upstream may run on: the operator pays whatever it costs there.',
  })
  upstreamStopped: boolean;

  @ApiProperty({
    description: 'The task after the cancel (cancelled, its hold released).',
    type: () => TaskDetailView,
  })
  task: TaskDetailView;
}

/** What an operator's refund did. */
export class TaskRefundResultView {
  @ApiProperty({
    description: 'false when this was a replay of the refund already made (same idempotencyKey).',
  })
  applied: boolean;

  @ApiProperty({ description: 'Credited back, in micros.', type: String, pattern: '^[0-9]+$' })
  amountMicros: string;

  @ApiProperty({ description: 'The task after the refund.', type: () => TaskDetailView })
  task: TaskDetailView;
}
