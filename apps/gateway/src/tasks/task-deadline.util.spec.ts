import { videoDeadlineMsOf } from './task-deadline.util';

const deadlines = {
  defaultMs: 3_600_000,
  byFamily: new Map([
    ['delta', 5_400_000],
    ['delta-2-pro', 7_000_000],
    ['epsilon', 1_800_000],
  ]),
};

describe('videoDeadlineMsOf', () => {
  it.each([
    ['delta-2', 5_400_000],
    ['delta-2-pro', 7_000_000],
    ['epsilon_3_1-extend', 1_800_000],
    ['Delta-2', 5_400_000],
    ['deltaic', 3_600_000],
    ['zeta-video-3', 3_600_000],
  ])('gives %s %i ms', (family, ms) => {
    expect(videoDeadlineMsOf(deadlines, family)).toBe(ms);
  });
});
