import { fromTaskChangesMessage, taskChangesChannel, toTaskChangesMessage } from './task-change.announcement';

describe('task change announcements', () => {
  it('names one channel under the Redis prefix', () => {
    expect(taskChangesChannel('{gw}')).toBe('{gw}:tasks:changes');
  });

  it('reads back the ids it wrote, in order', () => {
    const ids = ['video_a', 'music_b', 'img_"quoted"\n'];
    expect(fromTaskChangesMessage(toTaskChangesMessage(ids))).toEqual(ids);
  });

  it('keeps only well-formed ids from what anyone may publish on the channel', () => {
    for (const garbage of ['', 'video_a', '{"0":"video_a"}', 'null', '42', '[', '"video_a"']) {
      expect(fromTaskChangesMessage(garbage)).toEqual([]);
    }
    expect(
      fromTaskChangesMessage(
        JSON.stringify(['video_a', 7, null, '', 'x'.repeat(129), ['video_b'], 'video_c']),
      ),
    ).toEqual(['video_a', 'video_c']);
  });
});
