/** A budget period: UTC calendar day, week (from Monday), month, or `total` (never resets). */
export type BudgetPeriodName = 'day' | 'week' | 'month' | 'total';

const DAY_MS = 86_400_000;

/** Start and end (exclusive, epoch ms) of the UTC period containing `nowMs`; `total` never ends. */
export function budgetPeriodOf(
  period: BudgetPeriodName,
  nowMs: number,
): { start: number; end: number | null } {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  switch (period) {
    case 'day': {
      const start = Date.UTC(year, month, day);
      return { start, end: start + DAY_MS };
    }
    case 'week': {
      // getUTCDay: Sunday 0 … Saturday 6; weeks start on Monday.
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      const start = Date.UTC(year, month, day - sinceMonday);
      return { start, end: start + 7 * DAY_MS };
    }
    case 'month':
      return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
    case 'total':
      return { start: 0, end: null };
  }
}
