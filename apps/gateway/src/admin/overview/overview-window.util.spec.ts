import { resolveOverviewWindow } from './overview-window.util';

const NOW = new Date('2026-06-01T12:00:00Z');

describe('resolveOverviewWindow', () => {
  it.each([
    ['90m', 'minute', '2026-06-01T10:30:00.000Z'],
    ['48h', 'minute', '2026-05-30T12:00:00.000Z'],
    ['92d', 'hour', '2026-03-01T12:00:00.000Z'],
  ] as const)('reads %s by %s as the window ending now', (window, bucket, from) => {
    expect(resolveOverviewWindow(window, bucket, NOW)).toEqual({ from: new Date(from), to: NOW });
  });

  it.each([
    ['49h', 'minute'],
    ['3d', 'minute'],
    ['93d', 'hour'],
    ['99999d', 'hour'],
  ] as const)('refuses %s by %s, naming window', (window, bucket) => {
    expect(() => resolveOverviewWindow(window, bucket, NOW)).toThrow(
      expect.objectContaining({ param: 'window' }),
    );
  });
});
