import { circuitSnapshotOf } from './circuit-state.reader';

describe('circuitSnapshotOf', () => {
  it('is closed without an open entry', () => {
    expect(circuitSnapshotOf(undefined, 30_000, 1_000)).toEqual({ state: 'closed' });
  });

  it('is open until the cool-down ends, half-open after, and dates the opening back by the cool-down', () => {
    expect(circuitSnapshotOf(40_000, 30_000, 39_999)).toEqual({ state: 'open', openedAt: 10_000 });
    expect(circuitSnapshotOf(40_000, 30_000, 40_000)).toEqual({ state: 'half_open', openedAt: 10_000 });
  });
});
