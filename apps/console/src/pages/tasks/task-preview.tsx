import type { TaskDetail } from '../../api/admin.types';
import { mediaPreviews } from '../../format/preview.util';

/** The task's outputs, played from the gateway's own URLs (same origin: the cookie opens them). */
export function TaskPreview({ task }: { task: TaskDetail }) {
  const previews = mediaPreviews(task, task.kind, window.location.origin);
  if (previews.length === 0) {
    return (
      <p className="muted">
        {task.status === 'completed'
          ? 'The gateway gives no preview URL for this task.'
          : 'Nothing produced yet.'}
      </p>
    );
  }
  return (
    <div className="previews">
      {previews.map((preview, index) => {
        const label = `Output ${index + 1} of task ${task.id}`;
        if (preview.kind === 'video') {
          return (
            <video
              key={preview.url}
              src={preview.url}
              controls
              preload="metadata"
              aria-label={label}
              className="preview"
            />
          );
        }
        if (preview.kind === 'audio')
          return <audio key={preview.url} src={preview.url} controls preload="metadata" aria-label={label} />;
        return <img key={preview.url} src={preview.url} alt={label} className="preview" />;
      })}
    </div>
  );
}
