import { isTaskPollSnapshot, progressWriteDue } from './task-poll-snapshot';

describe('progressWriteDue', () => {
  const INTERVAL_MS = 5_000;
  /** The progress stored at 40, written at t = 1,000 s; the upstream answers `answered` at `nowMs`. */
  const due = (answered: number, nowMs: number) =>
    progressWriteDue(40, answered, 1_000_000, nowMs, INTERVAL_MS);

  it('holds a change back until the interval since the last write has passed, then writes it', () => {
    expect(due(41, 1_000_000)).toBe(false);
    expect(due(90, 1_000_000 + INTERVAL_MS - 1)).toBe(false);
    expect(due(41, 1_000_000 + INTERVAL_MS)).toBe(true);
    expect(due(41, 1_000_000 + 60 * INTERVAL_MS)).toBe(true);
  });

  it('never writes a progress the row already holds, however long ago it was written', () => {
    expect(due(40, 1_000_000 + 60 * INTERVAL_MS)).toBe(false);
  });

  it('treats no value specially: 100 while pending and a move backwards wait like any other', () => {
    expect(due(100, 1_000_000 + 1)).toBe(false);
    expect(due(100, 1_000_000 + INTERVAL_MS)).toBe(true);
    expect(due(10, 1_000_000 + 1)).toBe(false);
    expect(due(10, 1_000_000 + INTERVAL_MS)).toBe(true);
  });

  it('waits the whole interval after a write stamped ahead of this clock (another worker, skew)', () => {
    expect(progressWriteDue(40, 50, 1_002_000, 1_000_000 + INTERVAL_MS, INTERVAL_MS)).toBe(false);
    expect(progressWriteDue(40, 50, 1_002_000, 1_002_000 + INTERVAL_MS, INTERVAL_MS)).toBe(true);
  });
});

describe('isTaskPollSnapshot', () => {
  const snapshot = {
    handle: { id: 'up-1' },
    channelId: 'chan_1',
    model: 'gamma-2',
    kind: 'video',
    createdAtMs: 1,
    deadlineAtMs: 2,
    progress: 0,
    progressWrittenAtMs: 1,
    rowReadAtMs: 1,
  };

  it('takes a whole snapshot', () => {
    expect(isTaskPollSnapshot(snapshot)).toBe(true);
  });

  it.each([
    ['nothing', undefined],
    ['a string', 'snapshot'],
    ['no handle', { ...snapshot, handle: null }],
    ['a numeric channel', { ...snapshot, channelId: 7 }],
    ['a textual deadline', { ...snapshot, deadlineAtMs: '2' }],
    ['no progress', { ...snapshot, progress: undefined }],
    [
      'no progress write time (a job enqueued before it was carried)',
      { ...snapshot, progressWrittenAtMs: undefined },
    ],
  ])('refuses %s (the step then reads the row)', (_name, value) => {
    expect(isTaskPollSnapshot(value)).toBe(false);
  });
});
