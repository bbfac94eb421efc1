import { HOUR_MS, MINUTE_MS, rollupCover } from './rollup-cover.util';

const at = (iso: string) => new Date(iso);

describe('rollupCover', () => {
  const window = { from: at('2026-11-28T10:20:30.000Z'), to: at('2026-11-29T10:20:30.000Z') };

  it('covers the whole buckets inside the window up to the watermark', () => {
    expect(rollupCover(window, HOUR_MS, at('2026-11-29T09:00:00.000Z'))).toEqual({
      from: at('2026-11-28T11:00:00.000Z'),
      to: at('2026-11-29T09:00:00.000Z'),
    });
    expect(rollupCover(window, MINUTE_MS, at('2026-11-30T00:00:00.000Z'))).toEqual({
      from: at('2026-11-28T10:21:00.000Z'),
      to: at('2026-11-29T10:20:00.000Z'),
    });
  });

  it('covers nothing before the rollup has run, or when the window lies past its watermark', () => {
    const empty = { from: window.from, to: window.from };
    expect(rollupCover(window, HOUR_MS, null)).toEqual(empty);
    expect(rollupCover(window, HOUR_MS, at('2026-11-28T11:00:00.000Z'))).toEqual(empty);
    expect(
      rollupCover({ from: window.from, to: at('2026-11-28T10:50:00.000Z') }, HOUR_MS, at('2027-01-01')),
    ).toEqual({
      from: window.from,
      to: window.from,
    });
  });

  it('starts at the retention floor when rows before it may have been swept', () => {
    expect(
      rollupCover(window, HOUR_MS, at('2026-11-29T09:00:00.000Z'), at('2026-11-29T02:00:00.000Z')),
    ).toEqual({
      from: at('2026-11-29T02:00:00.000Z'),
      to: at('2026-11-29T09:00:00.000Z'),
    });
    expect(
      rollupCover(window, HOUR_MS, at('2026-11-29T09:00:00.000Z'), at('2026-11-29T09:00:00.000Z')),
    ).toEqual({
      from: window.from,
      to: window.from,
    });
  });
});
