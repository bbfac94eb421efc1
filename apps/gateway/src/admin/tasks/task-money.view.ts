import { ApiProperty } from '@nestjs/swagger';

const MICROS = { type: String, pattern: '^[0-9]+$', example: '1500000' };

/** A task's money, in micros as decimal strings, read from its hold row and the ledger. */
export class TaskMoneyView {
  @ApiProperty({
    description: 'open while the task may still be charged, settled once; null when it took no hold.',
    type: String,
    enum: ['open', 'settled'],
    nullable: true,
  })
  holdStatus: 'open' | 'settled' | null;

  @ApiProperty({ description: 'What the hold reserved when the task was created.', ...MICROS })
  heldMicros: string;

  @ApiProperty({ description: 'What its settlement captured (the ledger capture of its hold).', ...MICROS })
  capturedMicros: string;

  @ApiProperty({
    description: 'What its settled hold gave back: held minus captured, never below 0.',
    ...MICROS,
  })
  releasedMicros: string;

  @ApiProperty({ description: 'What an operator refunded (POST /admin/tasks/{id}/refund).', ...MICROS })
  refundedMicros: string;
}
