import { usageColumns, usageSql, usageStatement } from './usage-query.sql';

const WINDOW = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-31T23:00:00Z') };
const COVER = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-31T00:00:00Z') };

describe('usageStatement', () => {
  it.each([
    ['key', 'COALESCE(key_id,'],
    ['account', 'COALESCE(account_id,'],
    ['model', 'COALESCE(model,'],
    ['channel', 'COALESCE(channel_id,'],
    ['day', "COALESCE(to_char(date_trunc('day', at), 'YYYY-MM-DD'),"],
    ['hour', "COALESCE(to_char(date_trunc('hour', at),"],
  ] as const)('groups by %s with a fixed expression', (grouping, expected) => {
    expect(usageStatement([grouping], WINDOW, COVER).text.replace(/\s+/g, ' ')).toContain(expected);
  });

  it('groups by several columns, in the order given', () => {
    const { text } = usageStatement(['day', 'model', 'channel'], WINDOW, COVER);
    expect(text).toContain("GROUP BY date_trunc('day', at), model, channel_id ORDER BY 1, 2, 3");
    expect(usageColumns(['day', 'model', 'channel']).slice(0, 3)).toEqual(['day', 'model', 'channelId']);
  });

  it('binds the window as parameters, never as SQL text', () => {
    const statement = usageStatement(['day'], WINDOW, COVER);
    expect(statement.text).not.toContain('2026');
    expect(statement.values).toEqual([
      '(none)',
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T23:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T00:00:00.000Z',
    ]);
  });

  it('hands every value to the quoting function when it cannot bind (COPY)', () => {
    const quoted: string[] = [];
    usageSql(['model'], WINDOW, COVER, (value) => {
      quoted.push(value);
      return "'q'";
    });
    expect(quoted).toEqual([
      '(none)',
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T23:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-31T00:00:00.000Z',
    ]);
  });
});
