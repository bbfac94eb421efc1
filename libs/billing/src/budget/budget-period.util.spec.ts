import { budgetPeriodOf } from './budget-period.util';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('budgetPeriodOf', () => {
  it('a day is the UTC calendar day', () => {
    const { start, end } = budgetPeriodOf('day', at('2026-11-29T23:59:59.999Z'));
    expect([iso(start), iso(end)]).toEqual(['2026-11-29T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
  });

  it('a week starts on Monday, also seen from a Sunday', () => {
    // 2026-11-29 is a Sunday.
    const { start, end } = budgetPeriodOf('week', at('2026-11-29T12:00:00Z'));
    expect([iso(start), iso(end)]).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
    expect(iso(budgetPeriodOf('week', at('2026-11-30T00:00:00Z')).start)).toBe('2026-11-30T00:00:00.000Z');
  });

  it('a month is the calendar month, across a year end', () => {
    const { start, end } = budgetPeriodOf('month', at('2026-12-31T23:00:00Z'));
    expect([iso(start), iso(end)]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it('total never resets', () => {
    expect(budgetPeriodOf('total', at('2026-06-01T00:00:00Z'))).toEqual({ start: 0, end: null });
  });
});
