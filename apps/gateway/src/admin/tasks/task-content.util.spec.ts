import type { Task } from '@gateway/db';
import { previewableContentType, taskContentUrl } from './task-content.util';

const task = (fields: Partial<Pick<Task, 'kind' | 'status' | 'resultUrl'>>) => ({
  id: 'vid_abc',
  kind: 'video',
  status: 'completed',
  resultUrl: null,
  ...fields,
});

describe('taskContentUrl', () => {
  it('points a completed video, or any completed task with a result, at the admin content route', () => {
    expect(taskContentUrl(task({}))).toBe('/admin/tasks/vid_abc/content');
    expect(taskContentUrl(task({ kind: 'music', resultUrl: 'https://cdn.example/a.mp3' }))).toBe(
      '/admin/tasks/vid_abc/content',
    );
  });

  it('has none before completion, nor for a task without a result', () => {
    expect(taskContentUrl(task({ status: 'processing' }))).toBeNull();
    expect(taskContentUrl(task({ status: 'failed', resultUrl: 'https://cdn.example/v.mp4' }))).toBeNull();
    expect(taskContentUrl(task({ kind: 'image' }))).toBeNull();
  });
});

describe('previewableContentType', () => {
  it.each(['video/mp4', 'audio/mpeg', 'image/png', 'image/webp; charset=binary'])('keeps %s', (type) => {
    expect(previewableContentType(type)).toBe(type);
  });

  it.each([undefined, 'text/html', 'image/svg+xml', 'application/javascript', 'text/html; x=video/mp4'])(
    'serves %s as plain bytes',
    (type) => {
      expect(previewableContentType(type)).toBe('application/octet-stream');
    },
  );
});
