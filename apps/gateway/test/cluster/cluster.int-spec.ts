import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { waitFor } from '@gateway/testing';
import { ClusterDeployment } from './cluster-deployment';
import {
  failureSamples,
  failuresBefore,
  figuresOfFaults,
  totalsByKind,
  type FaultEvent,
} from './cluster-figures';
import { ClusterLoad } from './cluster-load';
import { createLimitedKey, seedClusterTraffic, type ClusterSeed } from './cluster-seed';

const VIDEO_TASKS = 300;
/** The creates are spread over the faults, so that tasks are in every phase when each one strikes. */
const VIDEO_SPREAD_MS = 40_000;
const VIDEO_TASK_MS = 1_500;
/** Seconds of load between two faults. */
const FAULT_INTERVAL_MS = 6_000;
/** How long the open tasks may take to finish once the faults are over. */
const DRAIN_TIMEOUT_MS = 60_000;
/** A failure more than this long after the last fault before it is not the fault's doing. */
const FAULT_WINDOW_MS = 12_000;

interface AuditReport {
  ok: boolean;
  findings: unknown[];
  totals: { accounts: number; accountsBalanced: number };
}

/**
 * The production topology on one machine, on loopback (docs/operations.md): a Redis Cluster, PgBouncer
 * in transaction mode, HAProxy in front of two public gateway replicas, an admin instance and the
 * workers, all production builds. Under text, image and video traffic, a Redis primary is killed, a
 * gateway replica and a video worker are SIGKILLed and restarted, and PgBouncer is restarted; the
 * figures are printed, and what must hold whatever the faults is asserted: no task lost, no upstream
 * create twice, no settlement twice, the books balanced, failures only right after a fault.
 */
describe('the gateway on a Redis Cluster, behind PgBouncer and a load balancer, through faults', () => {
  let deployment: ClusterDeployment;
  let direct: Pool;
  let seed: ClusterSeed;

  beforeAll(async () => {
    deployment = await ClusterDeployment.start();
    direct = new Pool({ connectionString: deployment.database.url, max: 2 });
    await deployment.startProcesses();
  }, 180_000);

  afterAll(async () => {
    await direct?.end();
    await deployment?.stop();
  });

  it('loses no task, creates and settles nothing twice, and recovers from every fault', async () => {
    seed = await seedClusterTraffic(deployment.adminUrl, deployment.adminToken, deployment.simulatorUrl);
    const load = new ClusterLoad({
      publicUrl: deployment.publicUrl,
      key: seed.key,
      videoCount: VIDEO_TASKS,
      videoSpreadMs: VIDEO_SPREAD_MS,
      videoTaskMs: VIDEO_TASK_MS,
    });
    const faults: FaultEvent[] = [];
    const strike = async (name: string, cause: () => Promise<number>) => {
      await sleep(FAULT_INTERVAL_MS);
      const at = load.now();
      faults.push({ name, at, componentRecoveryMs: await cause() });
    };

    // The primary of the queues' slot (BullMQ's prefix is the configured one in a hash tag).
    const victim = await deployment.redis.primaryPortOf(`{${deployment.common.REDIS_PREFIX}}`);
    await strike('Redis primary killed, replica promoted', () => deployment.redis.killPrimary(victim));
    await strike('gateway replica SIGKILLed and restarted', () => deployment.killAndRestart('public-1'));
    await strike('video worker SIGKILLed and restarted', () => deployment.killAndRestart('worker-video-1'));
    await strike('PgBouncer restarted', () => deployment.bouncer.restart());
    await sleep(FAULT_INTERVAL_MS);
    await load.finish();
    const loadEndedAt = load.now();

    const taskIds = [...load.videoTasks.values()];
    const openTasks = async () =>
      Number(
        (
          await direct.query<{ open: string }>(
            `select count(*) as open from tasks where id = any($1) and status not in ('completed', 'failed', 'cancelled')`,
            [taskIds],
          )
        ).rows[0].open,
      );
    await waitFor(async () => (await openTasks()) === 0, DRAIN_TIMEOUT_MS).catch(() => undefined);
    const drainedAfterMs = load.now() - loadEndedAt;
    // The tasks' holds are settled once each task is (its settlement may land just after its row).
    await waitFor(
      async () =>
        Number(
          (
            await direct.query<{ n: string }>(
              `select count(*) as n from holds join tasks on tasks.hold_request_id = holds.request_id
                where tasks.id = any($1) and holds.status = 'open'`,
              [taskIds],
            )
          ).rows[0].n,
        ) === 0,
      30_000,
    ).catch(() => undefined);
    // Holds of requests whose settlement could not be written (Postgres unreachable through a fault)
    // stay open until the reaper releases them (HOLD_TTL_MS): counted, not waited for.
    const holdsLeftOpen = Object.fromEntries(
      (
        await direct.query<{ route: string; count: string }>(
          `select route, count(*) as count from holds where status = 'open' group by route`,
        )
      ).rows.map((row) => [row.route, Number(row.count)]),
    );

    const statuses = Object.fromEntries(
      (
        await direct.query<{ status: string; count: string }>(
          'select status, count(*) as count from tasks where id = any($1) group by status',
          [taskIds],
        )
      ).rows.map((row) => [row.status, Number(row.count)]),
    );
    const completed = statuses['completed'] ?? 0;
    const simulatorStats = (await (await fetch(`${deployment.simulatorUrl}/__sim/stats`)).json()) as {
      videos: { created: number; createRequests: number; replayed: number };
    };
    const doubleSettlements = Number(
      (
        await direct.query<{ n: string }>(
          `select count(*) as n from (select request_id from ledger_entries where kind = 'capture'
             group by request_id having count(*) > 1) as twice`,
        )
      ).rows[0].n,
    );
    const audit = (await (
      await fetch(`${deployment.adminUrl}/admin/audit`, {
        headers: { authorization: `Bearer ${deployment.adminToken}` },
      })
    ).json()) as AuditReport;
    const faultFigures = figuresOfFaults(load.outcomes, faults);
    const lastFault = faults[faults.length - 1];
    const lateFailures = load.outcomes.filter(
      (outcome) => !outcome.ok && outcome.at > lastFault.at + FAULT_WINDOW_MS,
    );

    console.log(
      JSON.stringify(
        {
          requests: totalsByKind(load.outcomes),
          faults: faultFigures,
          failureSamples: failureSamples(load.outcomes),
          videoTasks: {
            requested: VIDEO_TASKS,
            createdAnswered: load.videoTasks.size,
            statuses,
            lost: VIDEO_TASKS - completed,
            drainedAfterLoadMs: drainedAfterMs,
          },
          upstreamVideoCreates: simulatorStats.videos,
          duplicateUpstreamCreates: simulatorStats.videos.created - new Set(taskIds).size,
          doubleSettlements,
          holdsLeftOpen,
          audit: { ok: audit.ok, findings: audit.findings.length, totals: audit.totals },
        },
        null,
        2,
      ),
    );

    expect(failuresBefore(load.outcomes, faults[0].at)).toEqual([]);
    expect(lateFailures).toEqual([]);
    expect(load.videoTasks.size).toBe(VIDEO_TASKS);
    expect(new Set(taskIds).size).toBe(VIDEO_TASKS);
    expect(statuses).toEqual({ completed: VIDEO_TASKS });
    expect(simulatorStats.videos.created).toBe(VIDEO_TASKS);
    expect(doubleSettlements).toBe(0);
    expect(audit).toMatchObject({ ok: true, findings: [] });
    // Every kind of traffic still sent after the last fault was served after it. The text and image
    // loops run to the end; the video creates end with their spread, which a slow machine's faults
    // (each waits for its component to recover) may outlast.
    for (const kind of ['native', 'chat', 'image', 'video'] as const) {
      const after = load.outcomes.filter((outcome) => outcome.kind === kind && outcome.at > lastFault.at);
      if (kind !== 'video') expect(after.length).toBeGreaterThan(0);
      if (after.length > 0) expect(after.some((outcome) => outcome.ok)).toBe(true);
    }
  }, 300_000);

  it("holds a key's request limit across both replicas, its counters on the cluster", async () => {
    const limit = 10;
    const key = await createLimitedKey(deployment.adminUrl, deployment.adminToken, seed.accountId, limit);
    // The limit counts per minute: a burst that would straddle two minutes waits for the next one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await sleep(60_000 - intoMinute + 100);
    const statuses: number[] = [];
    // Sequential, through HAProxy's round robin: every other request reaches the other replica.
    for (let index = 0; index < limit * 2; index += 1) {
      const response = await fetch(`${deployment.publicUrl}/v1beta/models/kappa-2.0-flash:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vendor-api-key': key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Count me' }] }] }),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }

    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(limit);
  }, 120_000);
});
