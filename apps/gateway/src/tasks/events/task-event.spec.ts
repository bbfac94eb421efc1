import { isTerminalTaskEvent, taskEventName, taskEventOfRow } from './task-event';

describe('task events', () => {
  const row = (seq: string, status: string, progress: number, taskId = 'video_abc') => ({
    seq,
    status,
    progress,
    task_id: taskId,
  });

  it('reads a recorded row (bigint as text)', () => {
    expect(taskEventOfRow(row('42', 'processing', 17))).toEqual({
      seq: 42,
      status: 'processing',
      progress: 17,
      taskId: 'video_abc',
    });
  });

  it('leaves out a row no writer of this gateway makes', () => {
    for (const odd of [
      row('x', 'processing', 17),
      row('0', 'processing', 17),
      row('-3', 'processing', 17),
      row('9007199254740993', 'processing', 17),
      row('42', 'running', 17),
      row('42', 'processing', 1.5),
      row('42', 'processing', 17, ''),
    ]) {
      expect(taskEventOfRow(odd)).toBeUndefined();
    }
  });

  it('names a terminal status’ event by the status, every other change `progress`', () => {
    expect(
      ['queued', 'processing', 'completed', 'failed', 'cancelled'].map((s) => taskEventName(s as never)),
    ).toEqual(['progress', 'progress', 'completed', 'failed', 'cancelled']);
    expect(isTerminalTaskEvent({ status: 'failed' })).toBe(true);
    expect(isTerminalTaskEvent({ status: 'processing' })).toBe(false);
  });
});
