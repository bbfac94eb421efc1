import { StringField } from '@gateway/contracts';

const REASON = { description: 'Why, for the task row and the log.', nonEmpty: true, maxLength: 500 } as const;

/** Body of `POST /admin/tasks/{id}/cancel`. */
export class CancelTaskDto {
  @StringField(REASON)
  reason: string;
}

/** Body of `POST /admin/tasks/{id}/refund`. */
export class RefundTaskDto {
  @StringField({ ...REASON, description: 'Why, for the ledger row’s note.' })
  reason: string;

  @StringField({
    description:
      'Makes a retried refund answer 200 again (applied: false) instead of 409; letters, digits and . _ : -.',
    optional: true,
    nonEmpty: true,
    maxLength: 200,
    pattern: /^[A-Za-z0-9._:-]+$/,
    patternHint: 'letters, digits and . _ : - only',
  })
  idempotencyKey?: string;
}
