import type { TimeWindow } from '../usage/usage-window.util';
import { overviewCover } from './overview-cover.util';
import type { RollupWatermarks } from './rollup-watermarks.reader';

const at = (iso: string) => new Date(iso);
const span = (from: string, to: string): TimeWindow => ({ from: at(from), to: at(to) });
const lengthMs = (part: TimeWindow) => part.to.getTime() - part.from.getTime();
const marks = (overrides: Partial<RollupWatermarks> = {}): RollupWatermarks => ({
  minute: at('2026-11-29T10:18:00.000Z'),
  hour: at('2026-11-29T10:00:00.000Z'),
  minuteFloor: null,
  hourFloor: null,
  ...overrides,
});

/** Every part of a cover, in time order, must tile the window exactly: no gap, no overlap. */
function expectTiles(window: TimeWindow, cover: ReturnType<typeof overviewCover>, from = window.from) {
  const parts = [cover.hours, ...cover.minutes, ...cover.raw]
    .filter((part) => lengthMs(part) > 0)
    .sort((a, b) => a.from.getTime() - b.from.getTime());
  let reached = from.getTime();
  for (const part of parts) {
    expect(part.from.getTime()).toBe(reached);
    reached = part.to.getTime();
  }
  expect(reached).toBe(window.to.getTime());
}

describe('overviewCover', () => {
  const window = span('2026-11-28T10:20:30.000Z', '2026-11-29T10:20:30.000Z');

  it('reads a minute chart from whole minutes and raw rows only', () => {
    const cover = overviewCover(window, 'minute', marks());
    expect(lengthMs(cover.hours)).toBe(0);
    expect(cover.minutes[0]).toEqual(span('2026-11-28T10:21:00.000Z', '2026-11-29T10:18:00.000Z'));
    expect(cover.raw.filter((part) => lengthMs(part) > 0)).toEqual([
      span('2026-11-28T10:20:30.000Z', '2026-11-28T10:21:00.000Z'),
      span('2026-11-29T10:18:00.000Z', '2026-11-29T10:20:30.000Z'),
    ]);
    expectTiles(window, cover);
  });

  it('reads an hourly chart from whole hours, the partial hours from minutes and raw rows', () => {
    const cover = overviewCover(window, 'hour', marks());
    expect(cover.hours).toEqual(span('2026-11-28T11:00:00.000Z', '2026-11-29T10:00:00.000Z'));
    expect(cover.minutes).toEqual([
      span('2026-11-28T10:21:00.000Z', '2026-11-28T11:00:00.000Z'),
      span('2026-11-29T10:00:00.000Z', '2026-11-29T10:18:00.000Z'),
    ]);
    expectTiles(window, cover);
  });

  it('reads everything raw before any rollup ran', () => {
    const cover = overviewCover(window, 'hour', marks({ minute: null, hour: null }));
    expect(cover.raw.filter((part) => lengthMs(part) > 0)).toEqual([window]);
    expectTiles(window, cover);
  });

  it('falls back to the whole first hour when the minutes of the partial first hour were swept', () => {
    const cover = overviewCover(window, 'hour', marks({ minuteFloor: at('2026-11-29T00:00:00.000Z') }));
    expect(cover.hours).toEqual(span('2026-11-28T10:00:00.000Z', '2026-11-29T10:00:00.000Z'));
    expectTiles(window, cover, at('2026-11-28T10:00:00.000Z'));
  });

  it('reads raw, never from a swept rollup, what lies before both floors', () => {
    const cover = overviewCover(
      window,
      'hour',
      marks({ minuteFloor: at('2026-11-29T00:00:00.000Z'), hourFloor: at('2026-11-28T15:00:00.000Z') }),
    );
    expect(cover.hours).toEqual(span('2026-11-28T15:00:00.000Z', '2026-11-29T10:00:00.000Z'));
    expect(cover.minutes[0].to.getTime()).toBeLessThanOrEqual(cover.minutes[0].from.getTime());
    expect(cover.raw[0]).toEqual(span('2026-11-28T10:20:30.000Z', '2026-11-28T15:00:00.000Z'));
    expectTiles(window, cover);
  });
});
