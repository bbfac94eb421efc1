import { WireError } from '../scripted-error';
import { etaInvalidParameter } from './eta-errors';
import { ThetaTask } from './eta-theta-tasks';

const DEFAULT_PAGE_SIZE = 10;
/** The wire's page size bound‡. */
const MAX_PAGE_SIZE = 500;

type Query = Record<string, string | string[] | undefined>;

/**
 * The list call of §6.2: the caller's tasks, newest first, as the query shows them (listing moves no
 * task on), filtered by `filter.status`, `filter.task_ids` (repeated or comma-separated) and
 * `filter.model`, paged by `page_num` (from 1) and `page_size`; `total` counts every match.
 */
export function thetaTaskList(
  query: Query,
  tasks: readonly ThetaTask[],
  view: (task: ThetaTask) => Record<string, unknown>,
  requestId: string,
): { body: { items: Array<Record<string, unknown>>; total: number } } | { error: WireError } {
  const pageNum = positiveInteger(first(query['page_num']), 1);
  const pageSize = positiveInteger(first(query['page_size']), DEFAULT_PAGE_SIZE);
  if (pageNum === undefined)
    return { error: etaInvalidParameter('page_num', 'must be a positive integer.', requestId) };
  if (pageSize === undefined || pageSize > MAX_PAGE_SIZE) {
    return { error: etaInvalidParameter('page_size', `must be from 1 to ${MAX_PAGE_SIZE}.`, requestId) };
  }
  const status = first(query['filter.status']);
  const model = first(query['filter.model']);
  const ids = [query['filter.task_ids'] ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .filter(Boolean);
  const matches = tasks.filter(
    (task) =>
      (status === undefined || task.fields.status === status) &&
      (model === undefined || task.fields.job.model === model) &&
      (ids.length === 0 || ids.includes(task.id)),
  );
  const page = matches.slice((pageNum - 1) * pageSize, pageNum * pageSize);
  return { body: { items: page.map(view), total: matches.length } };
}

function first(value: string | string[] | undefined): string | undefined {
  const single = Array.isArray(value) ? value[0] : value;
  return single === '' ? undefined : single;
}

/** The value as a positive integer, the default when absent, or undefined when it is no such number. */
function positiveInteger(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
