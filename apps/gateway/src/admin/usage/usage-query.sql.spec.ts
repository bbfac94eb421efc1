import { UsageQueryDto, type UsageGrouping } from '@gateway/contracts';
import { usageStatement } from './usage-query.sql';

function query(groupBy: UsageGrouping, range: { from?: string; to?: string } = {}): UsageQueryDto {
  return Object.assign(new UsageQueryDto(), { groupBy, ...range });
}

describe('usageStatement', () => {
  it.each([
    ['key', 'COALESCE(key_id,'],
    ['model', 'COALESCE(model,'],
    ['channel', 'COALESCE(channel_id,'],
    ['day', "COALESCE(to_char(created_at, 'YYYY-MM-DD'),"],
  ] as const)('groups by %s with a fixed expression', (groupBy, expected) => {
    expect(usageStatement(query(groupBy)).sql.replace(/\s+/g, ' ')).toContain(expected);
  });

  it('binds the time range as parameters, never as SQL text', () => {
    const statement = usageStatement(
      query('day', { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00+01:00' }),
    );
    expect(statement.sql).not.toContain('2026');
    expect(statement.values).toEqual(['(none)', '2026-01-01T00:00:00.000Z', '2026-01-31T23:00:00.000Z']);
  });
});
