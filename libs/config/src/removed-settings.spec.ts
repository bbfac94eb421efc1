import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('removed settings', () => {
  it('refuses to start while TASK_EVENTS_POLL_MS is set, naming its replacement', () => {
    expect(problemsOf({ TASK_EVENTS_POLL_MS: '1000' })).toEqual([
      expect.stringMatching(
        /^TASK_EVENTS_POLL_MS is no longer read: set TASK_EVENTS_FALLBACK_POLL_MS instead/,
      ),
    ]);
  });

  it('refuses it beside its replacement too: the old value would still be what the operator meant', () => {
    expect(problemsOf({ TASK_EVENTS_POLL_MS: '1000', TASK_EVENTS_FALLBACK_POLL_MS: '1000' })).toEqual([
      expect.stringContaining('TASK_EVENTS_POLL_MS'),
    ]);
  });

  it('lets a blank value pass, as an unset one (compose files pass `NAME=`)', () => {
    expect(loadConfig({ ...REQUIRED, TASK_EVENTS_POLL_MS: ' ' }).taskEvents.fallbackPollMs).toBe(5_000);
  });
});
