import { isTaskPollSnapshot, PROGRESS_WRITE_STEP, progressWorthWriting } from './task-poll-snapshot';

describe('progressWorthWriting', () => {
  it('writes a move of a whole step, and the end at once', () => {
    expect(progressWorthWriting(0, PROGRESS_WRITE_STEP)).toBe(true);
    expect(progressWorthWriting(40, 40 + PROGRESS_WRITE_STEP - 1)).toBe(false);
    expect(progressWorthWriting(95, 100)).toBe(true);
    expect(progressWorthWriting(40, 40)).toBe(false);
  });

  it('writes a step backwards too (an upstream that restarted a job)', () => {
    expect(progressWorthWriting(60, 60 - PROGRESS_WRITE_STEP)).toBe(true);
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
  ])('refuses %s (the step then reads the row)', (_name, value) => {
    expect(isTaskPollSnapshot(value)).toBe(false);
  });
});
