import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { tasksApi } from '../../api/admin.api';
import { microsToUnits } from '../../format/money.util';
import { formatTime } from '../../format/time.util';
import { Badge } from '../../ui/badge';
import { DetailsList } from '../../ui/details-list';
import { ErrorBanner } from '../../ui/error-banner';
import { Panel } from '../../ui/page-header';
import { TaskActions } from './task-actions';
import { TaskPreview } from './task-preview';

export function TaskDetailPanel({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const task = useQuery({
    queryKey: ['tasks', 'one', taskId],
    queryFn: () => tasksApi.get(taskId),
    // Follow a running task until it ends.
    refetchInterval: (query) =>
      query.state.data && ['queued', 'processing'].includes(query.state.data.status) ? 5_000 : false,
  });
  const data = task.data;
  return (
    <Panel title={`Task ${taskId}`} id="task-detail">
      <ErrorBanner error={task.error} />
      {data && (
        <>
          <DetailsList
            entries={[
              [
                'Status',
                <span key="status">
                  <Badge value={data.status} /> {data.stuck ? <Badge value="stuck" /> : null}
                </span>,
              ],
              ['Kind', data.kind],
              ['Model', data.model],
              ['Progress', `${data.progress}%`],
              [
                'Account',
                <Link key="account" to={`/accounts?account=${encodeURIComponent(data.accountId)}`}>
                  {data.accountId}
                </Link>,
              ],
              ['Key', data.keyId],
              ['Channel', data.channelId],
              ['Failure', data.failureReason],
              ['Created', formatTime(data.createdAt)],
              ['Deadline', formatTime(data.deadlineAt)],
              ['Completed', formatTime(data.completedAt)],
              ['Attempts', data.attempts === null ? null : String(data.attempts)],
              ['Remixed from', data.remixedFromId],
              ['Hold', data.money.holdStatus ?? 'none'],
              [
                'Held / captured / released',
                `${microsToUnits(data.money.heldMicros)} / ${microsToUnits(data.money.capturedMicros)} / ${microsToUnits(data.money.releasedMicros)}`,
              ],
              ['Refunded', microsToUnits(data.money.refundedMicros)],
            ]}
          />
          <h3>Preview</h3>
          <TaskPreview task={data} />
          <h3>Timeline</h3>
          <ol className="timeline">
            {data.timeline.map((entry) => (
              <li key={`${entry.event}-${entry.at}`}>
                <strong>{entry.event.replaceAll('_', ' ')}</strong>{' '}
                <span className="muted">{formatTime(entry.at)}</span>
              </li>
            ))}
          </ol>
          <h3>Upstream handle</h3>
          <pre className="code-block">
            {data.upstreamHandle
              ? JSON.stringify(data.upstreamHandle, null, 2)
              : 'Not accepted upstream yet.'}
          </pre>
          <TaskActions task={data} />
        </>
      )}
      <button type="button" className="button" onClick={onClose}>
        Close task
      </button>
    </Panel>
  );
}
