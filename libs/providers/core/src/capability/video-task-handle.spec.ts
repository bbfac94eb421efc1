import { videoTaskHandleOf } from './video-task-handle';

describe('videoTaskHandleOf', () => {
  it('reads a stored handle, with or without a resolution tier', () => {
    expect(videoTaskHandleOf({ taskId: 't', seconds: 5, resolution: '720p' }, 'a handle')).toEqual({
      taskId: 't',
      seconds: 5,
      resolution: '720p',
    });
    expect(videoTaskHandleOf({ taskId: 't', seconds: 5, resolution: null, extra: 1 }, 'a handle')).toEqual({
      taskId: 't',
      seconds: 5,
      resolution: null,
    });
  });

  it.each([[{ taskId: 1, seconds: 5, resolution: null }], [{ taskId: 't', seconds: 5 }], ['t']])(
    'refuses %j, naming the handle it expected',
    (handle) => {
      expect(() => videoTaskHandleOf(handle, 'an alpha task handle')).toThrow(
        new TypeError('not an alpha task handle'),
      );
    },
  );
});
