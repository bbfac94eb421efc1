import { DEFAULT_HANG_MS, ScriptedError } from '../scripted-error';
import { BetaTaskPlan, BetaTaskStore, TASK_RETENTION_MS } from './beta-task.store';

const PLAN: BetaTaskPlan = {
  pendingPolls: 0,
  readyAtMs: 0,
  terminalStatus: 'done',
  urlLifetimeSeconds: 60,
};
const FIELDS = {
  owner: 'ak:A',
  reqKey: 'beta_t2i_v40',
  output: { kind: 'image', width: 1024, height: 1024, imageCount: 1 } as const,
};
const OVERLOAD: ScriptedError = { errorClass: 'overload', hangMs: DEFAULT_HANG_MS };

describe('BetaTaskStore', () => {
  it('creates tasks with 19-digit ids that only their owner finds', () => {
    const store = new BetaTaskStore();
    const task = store.create({ ...FIELDS, plan: PLAN });
    expect(task.id).toMatch(/^[1-9]\d{18}$/);
    expect(store.find('ak:A', task.id)).toBe(task);
    expect(store.find('ak:B', task.id)).toBeUndefined();
    expect(store.find('ak:A', '123')).toBeUndefined();
  });

  it('answers in_queue, then generating, for the scripted polls, then done for good', () => {
    const store = new BetaTaskStore();
    const task = store.create({ ...FIELDS, plan: { ...PLAN, pendingPolls: 3 } });
    const statuses = Array.from({ length: 5 }, () => store.advance(task));
    expect(statuses).toEqual([
      { status: 'in_queue' },
      { status: 'generating' },
      { status: 'generating' },
      { status: 'done' },
      { status: 'done' },
    ]);
  });

  it('stays pending until the scripted time has passed', () => {
    const store = new BetaTaskStore();
    const task = store.create({ ...FIELDS, plan: { ...PLAN, readyAtMs: 5_000 } }, 0);
    expect(store.advance(task, 4_999)).toEqual({ status: 'in_queue' });
    expect(store.advance(task, 5_000)).toEqual({ status: 'done' });
  });

  it('fails after the scripted number of pending answers, and keeps failing', () => {
    const store = new BetaTaskStore();
    const task = store.create({ ...FIELDS, plan: { ...PLAN, failure: { scripted: OVERLOAD, after: 2 } } });
    expect([store.advance(task), store.advance(task), store.advance(task), store.advance(task)]).toEqual([
      { status: 'in_queue' },
      { status: 'generating' },
      { failure: OVERLOAD },
      { failure: OVERLOAD },
    ]);
  });

  it('blocks the output when it would be done, and ends in the scripted terminal status otherwise', () => {
    const store = new BetaTaskStore();
    const block: ScriptedError = { errorClass: 'content_policy', hangMs: DEFAULT_HANG_MS };
    expect(store.advance(store.create({ ...FIELDS, plan: { ...PLAN, outputBlock: block } }))).toEqual({
      failure: block,
    });
    expect(store.advance(store.create({ ...FIELDS, plan: { ...PLAN, terminalStatus: 'expired' } }))).toEqual({
      status: 'expired',
    });
  });

  it('forgets tasks older than 12 hours', () => {
    const store = new BetaTaskStore();
    const task = store.create({ ...FIELDS, plan: PLAN }, 0);
    expect(store.find('ak:A', task.id, TASK_RETENTION_MS - 1)).toBe(task);
    expect(store.find('ak:A', task.id, TASK_RETENTION_MS)).toBeUndefined();
  });
});
