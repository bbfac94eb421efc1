import { canTransition, isTerminalTaskStatus, TASK_STATUSES, TASK_TRANSITIONS } from './task-status';

describe('task status machine', () => {
  it('moves forward only: queued → processing → a terminal status', () => {
    expect(canTransition('queued', 'processing')).toBe(true);
    expect(canTransition('processing', 'completed')).toBe(true);
    expect(canTransition('processing', 'failed')).toBe(true);
    expect(canTransition('processing', 'queued')).toBe(false);
  });

  it('completes only a task a worker has claimed', () => {
    expect(canTransition('queued', 'completed')).toBe(false);
  });

  it('lets a deadline or a client end a task before any worker claimed it', () => {
    expect(canTransition('queued', 'failed')).toBe(true);
    expect(canTransition('queued', 'cancelled')).toBe(true);
  });

  it('never leaves a terminal status', () => {
    for (const terminal of ['completed', 'failed', 'cancelled'] as const) {
      expect(isTerminalTaskStatus(terminal)).toBe(true);
      expect(TASK_TRANSITIONS[terminal]).toEqual([]);
      for (const target of TASK_STATUSES) expect(canTransition(terminal, target)).toBe(false);
    }
    expect(isTerminalTaskStatus('processing')).toBe(false);
    expect(isTerminalTaskStatus('unknown')).toBe(false);
  });
});
