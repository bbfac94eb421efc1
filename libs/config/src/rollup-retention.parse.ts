import type { EnvironmentReader } from './environment-reader';
import type { RollupRetention } from './gateway-config';

/** The longest minute chart (MAX_OVERVIEW_WINDOW_HOURS.minute): its minutes must still be there. */
const MIN_MINUTE_DAYS = 2;
/** Thirty years, as the task retention's bound. */
const MAX_DAYS = 10_950;

/**
 * ROLLUP_MINUTE_RETENTION_DAYS (the overview's minute rows) and ROLLUP_HOUR_RETENTION_DAYS (the hourly
 * rows of usage and of the overview's series), which worker-text's rollup tick enforces in batches of
 * ROLLUP_SWEEP_BATCH rows (docs/admin-figures.md). Hours outlive minutes: an hourly chart reads its
 * hours where the minutes are gone.
 */
export function parseRollupRetention(reader: EnvironmentReader): RollupRetention {
  const minuteDays = reader.integer('ROLLUP_MINUTE_RETENTION_DAYS', 7, {
    min: MIN_MINUTE_DAYS,
    max: MAX_DAYS,
  });
  const hourDays = reader.integer('ROLLUP_HOUR_RETENTION_DAYS', 400, { min: 1, max: MAX_DAYS });
  if (hourDays < minuteDays) {
    reader.addProblem(
      `ROLLUP_HOUR_RETENTION_DAYS (${hourDays}) must not be shorter than ROLLUP_MINUTE_RETENTION_DAYS (${minuteDays}): hours stand in for swept minutes`,
    );
  }
  return {
    minuteDays,
    hourDays,
    sweepBatch: reader.integer('ROLLUP_SWEEP_BATCH', 5_000, { min: 1, max: 1_000_000 }),
  };
}
