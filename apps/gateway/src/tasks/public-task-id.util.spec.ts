import { isPublicTaskId, newPublicTaskId } from './public-task-id.util';

describe('public task ids', () => {
  it('recognises the ids it makes, for their own prefix only', () => {
    const id = newPublicTaskId('bt');
    expect(isPublicTaskId(id, 'bt')).toBe(true);
    expect(isPublicTaskId(id, 'vid')).toBe(false);
  });

  it.each([
    'bt_',
    'bt_\u0000AAAAAAAAAAAAAAAAAAAAA',
    `bt_${'A'.repeat(10_240)}`,
    'bt_AAAAAAAAAAAAAAAAAAAA/A',
    '__proto__',
  ])('refuses %j', (value) => {
    expect(isPublicTaskId(value, 'bt')).toBe(false);
  });
});
