import { GatewayError } from '@gateway/errors';
import { resolveUsageWindow } from './usage-window.util';

const NOW = new Date('2026-06-01T12:00:00Z');

describe('resolveUsageWindow', () => {
  it('defaults to the 24 hours before now, or before `to`', () => {
    expect(resolveUsageWindow({}, NOW)).toEqual({ from: new Date('2026-05-31T12:00:00Z'), to: NOW });
    expect(resolveUsageWindow({ to: '2026-01-02T00:00:00Z' }, NOW)).toEqual({
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-01-02T00:00:00Z'),
    });
  });

  it('takes a window of exactly 366 days, and an empty one', () => {
    expect(() => resolveUsageWindow({ from: '2025-06-01T12:00:00Z' }, NOW)).not.toThrow();
    expect(() => resolveUsageWindow({ from: '2026-06-01T12:00:00Z' }, NOW)).not.toThrow();
  });

  it.each([
    [{ from: '2026-06-02T00:00:00Z' }, 'from must not be after to'],
    [{ from: '2025-05-31T11:59:59Z' }, 'must not exceed 366 days'],
  ])('refuses %j, naming from', (range, message) => {
    let thrown: unknown;
    try {
      resolveUsageWindow(range, NOW);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect((thrown as GatewayError).message).toContain(message);
    expect(thrown).toMatchObject({ param: 'from' });
  });
});
