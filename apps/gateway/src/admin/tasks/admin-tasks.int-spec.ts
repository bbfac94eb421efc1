import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type HttpAnswer } from '../../../test/gateway-harness';
import { holdOf, seedVideoDemo, startVideoWorker, type VideoDemo } from '../../../test/video-demo';

type Json = Record<string, unknown>;
interface Money {
  holdStatus: string | null;
  heldMicros: string;
  capturedMicros: string;
  releasedMicros: string;
  refundedMicros: string;
}
type TaskItem = Json & { id: string; status: string; stuck: boolean; money: Money };
type Refusal = { error: { message: string; type: string; param?: string | null; code: string } };

/**
 * Issue 33: the admin task routes against a gateway, the simulators, a video worker, real Postgres
 * and Redis. Videos on the compat wire (delta-2 can be cancelled upstream) are created as a client
 * creates them; the worker starts only once the unfinished ones have been checked.
 */
describe('admin task routes', () => {
  let harness: GatewayHarness;
  let demo: VideoDemo;
  let worker: INestApplicationContext | undefined;
  let marker = 0;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  async function createVideo(directives = 'polls=1'): Promise<string> {
    const created = await harness.request<{ id: string }>('POST', '/v1/videos', {
      body: { model: 'delta-2', prompt: `A lighthouse #${++marker} [[sim ${directives}]]` },
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  const admin = <T = Json>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> =>
    harness.admin<T>(method, path, body);

  async function list(query: string): Promise<TaskItem[]> {
    const answer = await admin<{ items: TaskItem[]; nextCursor: string | null }>(
      'GET',
      `/admin/tasks?${query}`,
    );
    expect(answer.status).toBe(200);
    return answer.body.items;
  }

  async function balanceOf(accountId: string): Promise<bigint> {
    const [row] = await harness.query<{ balance: string }>(
      'select balance::text from accounts where id = $1',
      [accountId],
    );
    return BigInt(row.balance);
  }

  /**
   * What the account was credited in all: unlike its balance, untouched by the captures of the other
   * tasks of the suite that a worker settles while a test runs.
   */
  async function creditedOf(accountId: string): Promise<bigint> {
    const [row] = await harness.query<{ credited: string }>(
      "select coalesce(sum(amount), 0)::text as credited from ledger_entries where account_id = $1 and kind = 'credit'",
      [accountId],
    );
    return BigInt(row.credited);
  }

  /** The end reasons of the task's request-log rows (its hold's request id is the task's id). */
  async function endReasonsOf(taskId: string): Promise<string[]> {
    const rows = await harness.query<{ end_reason: string }>(
      'select end_reason from request_logs where request_id = $1',
      [taskId],
    );
    return rows.map((row) => row.end_reason);
  }

  async function expectAuditOk(): Promise<void> {
    await harness.settled();
    const report = await admin<{ ok: boolean }>('GET', '/admin/audit');
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true });
  }

  function expectRefused(answer: HttpAnswer<unknown>, status: number, param?: string): void {
    expect(answer.status).toBe(status);
    const { error } = answer.body as Refusal;
    expect(error).toEqual(expect.objectContaining({ message: expect.any(String), code: expect.any(String) }));
    if (param !== undefined) expect(error.param).toBe(param);
  }

  describe('unfinished tasks (no worker yet)', () => {
    const ids: string[] = [];

    beforeAll(async () => {
      for (let index = 0; index < 4; index += 1) ids.push(await createVideo('polls=2'));
    });

    it('lists every task newest first with its held money, paging without gaps or repeats', async () => {
      const seen: TaskItem[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const path: string = `/admin/tasks?accountId=${demo.accountId}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const answer = await admin<{ items: TaskItem[]; nextCursor: string | null }>('GET', path);
        expect(answer.status).toBe(200);
        seen.push(...answer.body.items);
        cursor = answer.body.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(2);
      expect(seen.map((task) => task.id)).toEqual([...ids].reverse());
      for (const task of seen) {
        const hold = await holdOf(harness, task.id);
        expect(task).toMatchObject({
          kind: 'video',
          status: 'queued',
          model: 'delta-2',
          accountId: demo.accountId,
          keyId: demo.keyId,
          stuck: false,
          money: {
            holdStatus: 'open',
            heldMicros: hold?.amount.toString(),
            capturedMicros: '0',
            releasedMicros: '0',
            refundedMicros: '0',
          },
        });
        expect(task).not.toHaveProperty('request');
      }
    });

    it('filters by status, kind, model, account, channel and age', async () => {
      const mine = (items: TaskItem[]) => items.map((task) => task.id).filter((id) => ids.includes(id));
      const all = [...ids].reverse();
      expect(mine(await list('status=queued'))).toEqual(all);
      expect(mine(await list('status=completed'))).toEqual([]);
      expect(mine(await list('kind=video'))).toEqual(all);
      expect(mine(await list('kind=music'))).toEqual([]);
      expect(mine(await list('model=delta-2'))).toEqual(all);
      expect(mine(await list('model=nu-1'))).toEqual([]);
      expect(mine(await list('accountId=acct_nobody'))).toEqual([]);
      const [row] = await harness.query<{ channel_id: string | null; created_at: Date }>(
        'select channel_id, created_at from tasks where id = $1',
        [ids[1]],
      );
      if (row.channel_id !== null) expect(mine(await list(`channelId=${row.channel_id}`))).toEqual(all);
      expect(mine(await list('channelId=ch_nowhere'))).toEqual([]);
      const at = encodeURIComponent(row.created_at.toISOString());
      expect(mine(await list(`createdAfter=${at}`))).toEqual(all.slice(0, 3));
      expect(mine(await list(`createdBefore=${at}`))).toEqual([ids[0]]);
      expect(mine(await list('createdAfter=2999-01-01T00:00:00Z'))).toEqual([]);
    });

    it('stuck=true lists only unfinished tasks past their deadline', async () => {
      await harness.query(`update tasks set deadline_at = now() - interval '1 minute' where id = $1`, [
        ids[3],
      ]);
      const stuck = await list(`stuck=true&accountId=${demo.accountId}`);
      expect(stuck.map((task) => task.id)).toEqual([ids[3]]);
      expect(stuck[0].stuck).toBe(true);
      const notStuck = await list(`stuck=false&accountId=${demo.accountId}`);
      expect(notStuck.map((task) => task.id)).toEqual([ids[2], ids[1], ids[0]]);
    });

    it('cancels a queued task: the hold released once, the reason on the row, 409 on a second cancel', async () => {
      const balance = await balanceOf(demo.accountId);
      const answer = await admin<{ upstreamStopped: boolean; task: TaskItem }>(
        'POST',
        `/admin/tasks/${ids[0]}/cancel`,
        { reason: 'customer asked by phone' },
      );
      expect(answer.status).toBe(200);
      const held = (await holdOf(harness, ids[0]))?.amount.toString();
      expect(answer.body).toMatchObject({
        upstreamStopped: true,
        task: {
          id: ids[0],
          status: 'cancelled',
          failureReason: 'cancelled by admin: customer asked by phone',
          money: { holdStatus: 'settled', heldMicros: held, capturedMicros: '0', releasedMicros: held },
        },
      });
      const again = await admin('POST', `/admin/tasks/${ids[0]}/cancel`, { reason: 'twice' });
      expectRefused(again, 409);
      expect((again.body as Refusal).error.code).toBe('conflict');
      await expectAuditOk();
      expect(await balanceOf(demo.accountId)).toBe(balance);
      const captures = await harness.query('select 1 from ledger_entries where request_id = $1', [ids[0]]);
      expect(captures).toHaveLength(0);
      expect(await endReasonsOf(ids[0])).toEqual(['cancelled']);
    });

    it('cancels a task a worker is submitting, though the wire cannot be asked: released, upstream not stopped', async () => {
      // A claimed submission: processing with no upstream handle yet (TaskCanceller refuses a client).
      await harness.query(`update tasks set status = 'processing' where id = $1`, [ids[1]]);
      const answer = await admin<{ upstreamStopped: boolean; task: TaskItem }>(
        'POST',
        `/admin/tasks/${ids[1]}/cancel`,
        { reason: 'runaway job' },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.upstreamStopped).toBe(false);
      expect(answer.body.task).toMatchObject({
        status: 'cancelled',
        failureReason: 'cancelled by admin: runaway job',
        money: { holdStatus: 'settled', capturedMicros: '0' },
      });
      expect(answer.body.task.money.releasedMicros).toBe(answer.body.task.money.heldMicros);
      expect(harness.logs.join('')).toMatch(/"by":"admin".*"reason":"runaway job"/);
      await expectAuditOk();
      // A cancel's row says so, where a task the gateway lost says `task_failed`.
      expect(await endReasonsOf(ids[1])).toEqual(['cancelled']);
    });
  });

  describe('a completed task', () => {
    let id: string;
    let captured: bigint;

    beforeAll(async () => {
      worker = await startVideoWorker(harness);
      id = await createVideo('polls=1');
      await waitFor(async () => (await holdOf(harness, id))?.status === 'settled', 30_000);
      await harness.settled();
      const [row] = await harness.query<{ amount: string }>(
        "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
        [id],
      );
      captured = BigInt(row.amount);
      expect(captured).toBeGreaterThan(0n);
    });

    it('shows its upstream handle, attempts, timeline and money', async () => {
      const answer = await admin<TaskItem>('GET', `/admin/tasks/${id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id,
        status: 'completed',
        stuck: false,
        upstreamHandle: expect.any(Object),
        attempts: expect.any(Number),
        money: { holdStatus: 'settled', capturedMicros: captured.toString(), refundedMicros: '0' },
      });
      const events = (answer.body['timeline'] as Array<{ event: string; at: string }>).map(
        (entry) => entry.event,
      );
      expect(events[0]).toBe('created');
      expect(events).toEqual(
        expect.arrayContaining(['completed', 'hold_settled', 'captured', 'last_written']),
      );
      expect(JSON.stringify(answer.body)).not.toContain('sim-compat-key');
    });

    it('refuses to cancel it: it has ended', async () => {
      expectRefused(await admin('POST', `/admin/tasks/${id}/cancel`, { reason: 'too late' }), 409);
    });

    it('refunds its capture once, as a credit; a retry with the same key replays, any other repeat is 409', async () => {
      const credited = await creditedOf(demo.accountId);
      const body = { reason: 'bad output', idempotencyKey: 'ticket-77' };
      const first = await admin<{ applied: boolean; amountMicros: string; task: TaskItem }>(
        'POST',
        `/admin/tasks/${id}/refund`,
        body,
      );
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ applied: true, amountMicros: captured.toString() });
      expect(first.body.task.money.refundedMicros).toBe(captured.toString());
      expect(await creditedOf(demo.accountId)).toBe(credited + captured);

      const replay = await admin<{ applied: boolean; amountMicros: string }>(
        'POST',
        `/admin/tasks/${id}/refund`,
        body,
      );
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ applied: false, amountMicros: captured.toString() });
      expectRefused(await admin('POST', `/admin/tasks/${id}/refund`, { reason: 'again' }), 409);
      expectRefused(
        await admin('POST', `/admin/tasks/${id}/refund`, { reason: 'again', idempotencyKey: 'ticket-7' }),
        409,
      );
      expect(await creditedOf(demo.accountId)).toBe(credited + captured);

      const credits = await harness.query<{ amount: string; note: string }>(
        "select amount::text, note from ledger_entries where idempotency_key = 'credit:refund:' || $1",
        [id],
      );
      expect(credits).toEqual([
        {
          amount: captured.toString(),
          note: `admin refund of task ${id}, idempotency key ticket-77: bad output`,
        },
      ]);
      const detail = await admin<{ timeline: Array<{ event: string }> }>('GET', `/admin/tasks/${id}`);
      expect(detail.body.timeline.map((entry) => entry.event)).toContain('refunded');
      await expectAuditOk();
    });

    it('does not refund a task that did not complete', async () => {
      const [cancelled] = await harness.query<{ id: string }>(
        "select id from tasks where status = 'cancelled' limit 1",
      );
      expectRefused(await admin('POST', `/admin/tasks/${cancelled.id}/refund`, { reason: 'no' }), 409);
    });
  });

  describe('hostile input', () => {
    it.each([
      ['cursor=garbage', 'cursor'],
      [`cursor=${Buffer.from('["2020-01-01T00:00:00.000Z","a\\u0000b"]').toString('base64url')}`, 'cursor'],
      ['cursor=', 'cursor'],
      ['status=lost', 'status'],
      ['stuck=maybe', 'stuck'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['createdBefore=2020-13-40', 'createdBefore'],
      ['model=a%00b', 'model'],
      ['kind=', 'kind'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['sort=asc', undefined],
    ])('GET /admin/tasks?%s is a 400 naming %s', async (query, param) => {
      expectRefused(await admin('GET', `/admin/tasks?${query}`), 400, param);
    });

    it('answers 404 for an unknown task and 400 for an id Postgres cannot store', async () => {
      expectRefused(await admin('GET', '/admin/tasks/video_nope'), 404);
      expectRefused(await admin('POST', '/admin/tasks/video_nope/cancel', { reason: 'x' }), 404);
      expectRefused(await admin('POST', '/admin/tasks/video_nope/refund', { reason: 'x' }), 404);
      expectRefused(await admin('GET', '/admin/tasks/a%00b'), 400);
    });

    it.each([
      [{}, 'reason'],
      [{ reason: '' }, 'reason'],
      [{ reason: 'a\u0000b' }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: 'ok', idempotencyKey: 'has space' }, 'idempotencyKey'],
      [{ reason: 'ok', extra: true }, undefined],
    ])('refuses the body %j naming %s', async (body, param) => {
      const [task] = await harness.query<{ id: string }>('select id from tasks limit 1');
      expectRefused(await admin('POST', `/admin/tasks/${task.id}/refund`, body), 400, param);
      expectRefused(await admin('POST', `/admin/tasks/${task.id}/cancel`, body), 400, param);
    });

    it('is open to the admin token only: a client key is 403, no token 401', async () => {
      const withKey = await harness.request('GET', '/admin/tasks', {
        headers: { authorization: `Bearer ${demo.key}` },
      });
      expect(withKey.status).toBe(403);
      expect((await harness.request('GET', '/admin/tasks')).status).toBe(401);
    });
  });
});
