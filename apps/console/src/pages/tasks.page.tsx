import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { tasksApi } from '../api/admin.api';
import { TASK_STATUSES } from '../api/admin.types';
import { microsToUnits } from '../format/money.util';
import { formatTime, localInputToIso } from '../format/time.util';
import { cursorPaging } from '../hooks/list-paging';
import { useCursorPages } from '../hooks/use-cursor-pages';
import { Badge } from '../ui/badge';
import { CheckboxField, SelectField, TextField } from '../ui/field';
import { FilterBar, ListPage } from '../ui/list-page';
import { PageHeader } from '../ui/page-header';
import { TaskDetailPanel } from './tasks/task-detail-panel';

const TEXT_FILTERS = [
  ['kind', 'Kind'],
  ['model', 'Model'],
  ['accountId', 'Account id'],
  ['channelId', 'Channel id'],
] as const;

export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('task') ?? undefined;
  const filters = Object.fromEntries([...params.entries()].filter(([name]) => name !== 'task'));
  const [draft, setDraft] = useState<Record<string, string>>(() => ({ ...filters }));
  const [dateProblem, setDateProblem] = useState<string>();
  const paging = useCursorPages();
  const tasks = useQuery({
    queryKey: ['tasks', 'page', filters, paging.cursor],
    queryFn: () => tasksApi.page({ ...filters, limit: 25, cursor: paging.cursor }),
  });

  const apply = (next: Record<string, string>, task?: string) => {
    const clean = Object.fromEntries(Object.entries(next).filter(([, value]) => value.trim() !== ''));
    setParams(task ? { ...clean, task } : clean);
  };
  const submit = () => {
    const after = draft['createdAfterLocal'] ?? '';
    const createdAfter = localInputToIso(after);
    if (after !== '' && createdAfter === undefined) {
      setDateProblem('Not a date and time.');
      return;
    }
    setDateProblem(undefined);
    const { createdAfterLocal: _local, ...rest } = draft;
    paging.reset();
    apply({ ...rest, ...(createdAfter ? { createdAfter } : { createdAfter: '' }) });
  };

  return (
    <>
      <PageHeader
        title="Tasks"
        intro="Every video, music, image and asset task with its money; find stuck ones, preview outputs, cancel or refund."
      />
      <ListPage
        label="Tasks"
        caption="Tasks, newest first"
        filters={
          <FilterBar
            label="Task filters"
            onApply={submit}
            onClear={() => {
              setDraft({});
              paging.reset();
              setParams({});
            }}
          >
            <SelectField
              label="Status"
              name="status"
              value={draft['status'] ?? ''}
              onChange={(value) => setDraft((all) => ({ ...all, status: value }))}
              options={['', ...TASK_STATUSES]}
            />
            {TEXT_FILTERS.map(([name, label]) => (
              <TextField
                key={name}
                label={label}
                name={name}
                value={draft[name] ?? ''}
                onChange={(value) => setDraft((all) => ({ ...all, [name]: value }))}
              />
            ))}
            <TextField
              label="Created after"
              name="createdAfter"
              type="datetime-local"
              value={draft['createdAfterLocal'] ?? ''}
              onChange={(value) => setDraft((all) => ({ ...all, createdAfterLocal: value }))}
              problem={dateProblem}
            />
            <CheckboxField
              label="Only stuck (unfinished past their deadline)"
              name="stuck"
              checked={draft['stuck'] === 'true'}
              onChange={(checked) => setDraft((all) => ({ ...all, stuck: checked ? 'true' : '' }))}
            />
          </FilterBar>
        }
        error={tasks.error}
        detail={
          selected && <TaskDetailPanel key={selected} taskId={selected} onClose={() => apply(filters)} />
        }
        rows={tasks.data?.items}
        emptyText="No task matches."
        columns={
          <>
            <th scope="col">Created</th>
            <th scope="col">Task</th>
            <th scope="col">Kind</th>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Held
            </th>
            <th scope="col" className="num">
              Captured
            </th>
            <th scope="col">Open</th>
          </>
        }
        renderRow={(task) => (
          <tr key={task.id} data-task={task.id} aria-selected={task.id === selected}>
            <td>{formatTime(task.createdAt)}</td>
            <td className="mono small">{task.id}</td>
            <td>{task.kind}</td>
            <td>{task.model}</td>
            <td>
              <Badge value={task.status} /> {task.stuck && <Badge value="stuck" />}
            </td>
            <td className="num">{microsToUnits(task.money.heldMicros)}</td>
            <td className="num">{microsToUnits(task.money.capturedMicros)}</td>
            <td>
              <button
                type="button"
                className="button"
                aria-label={`Open task ${task.id}`}
                onClick={() => apply(filters, task.id)}
              >
                Open
              </button>
            </td>
          </tr>
        )}
        paging={cursorPaging(paging, tasks.data?.nextCursor)}
      />
    </>
  );
}
