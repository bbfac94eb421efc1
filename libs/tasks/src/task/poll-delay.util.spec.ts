import { nextPollDelayMs } from './poll-delay.util';

const timing = { minPollDelayMs: 1_000, maxPollDelayMs: 30_000, submissionTimeoutMs: 120_000 };
const createdAt = new Date('2030-01-01T00:00:00Z');
const farDeadline = new Date('2030-01-02T00:00:00Z');
const at = (secondsAfterCreation: number) => createdAt.getTime() + secondsAfterCreation * 1000;

describe('nextPollDelayMs', () => {
  it('waits a tenth of the task age, within the bounds', () => {
    const task = { createdAt, deadlineAt: farDeadline };
    expect(nextPollDelayMs(task, at(2), timing)).toBe(1_000);
    expect(nextPollDelayMs(task, at(100), timing)).toBe(10_000);
    expect(nextPollDelayMs(task, at(3_600), timing)).toBe(30_000);
  });

  it('follows the upstream hint within the bounds', () => {
    const task = { createdAt, deadlineAt: farDeadline };
    expect(nextPollDelayMs(task, at(100), timing, 4_000)).toBe(4_000);
    expect(nextPollDelayMs(task, at(100), timing, 10)).toBe(1_000);
    expect(nextPollDelayMs(task, at(100), timing, 3_600_000)).toBe(30_000);
  });

  it('never waits past the deadline', () => {
    const task = { createdAt, deadlineAt: new Date(at(102)) };
    expect(nextPollDelayMs(task, at(100), timing)).toBe(2_000);
    expect(nextPollDelayMs(task, at(200), timing)).toBe(0);
  });
});
