import { refusalOf } from '../../../../test/gateway-refusal';
import { toMusicSubmission } from './music-submission';

describe('toMusicSubmission', () => {
  it('keeps the fields for the upstream, routes by mv (default lambda-v3-0), and names a continuation’s task', () => {
    expect(toMusicSubmission('music', { prompt: 'la la', tags: 'pop', extra: { a: 1 } })).toEqual({
      action: 'music',
      model: 'lambda-v3-0',
      fields: { prompt: 'la la', tags: 'pop', extra: { a: 1 } },
    });
    const continued = toMusicSubmission('music', {
      prompt: 'more',
      mv: 'lambda-v4',
      continue_clip_id: 'c1',
      continue_at: 30,
      task_id: 'music_x',
    });
    expect(continued).toEqual({
      action: 'music',
      model: 'lambda-v4',
      fields: { prompt: 'more', continue_clip_id: 'c1', continue_at: 30 },
      continueTaskId: 'music_x',
    });
  });

  it.each([
    ['lyrics', { title: 'x' }, 'prompt'],
    ['lyrics', { prompt: '   ' }, 'prompt'],
    ['music', { description_prompt: '' }, 'prompt'],
    ['music', { prompt: 'x', mv: '' }, 'mv'],
    ['music', { prompt: 'x', make_instrumental: 1 }, 'make_instrumental'],
    ['music', { prompt: 'x', continue_at: 3 }, 'continue_clip_id'],
    ['music', { prompt: 'x', continue_clip_id: 'c', task_id: 'music_x' }, 'continue_at'],
    ['music', { prompt: 'x', continue_clip_id: 'c', continue_at: Number.NaN, task_id: 't' }, 'continue_at'],
    ['lyrics', { prompt: 'x', task_id: 'music_x' }, 'task_id'],
    ['music', { prompt: 'x\u0000' }, 'prompt'],
    ['music', { prompt: 'x', nested: { ['k\ud800']: 1 } }, 'nested["k\\ud800"]'],
  ] as const)('refuses %s %j naming %s', (action, body, param) => {
    const error = refusalOf(() => toMusicSubmission(action, body));
    expect(error).toMatchObject({ code: 'invalid_request', param });
  });

  it('refuses a body that is not an object', () => {
    expect(refusalOf(() => toMusicSubmission('music', 'prompt')).code).toBe('invalid_request');
  });
});
