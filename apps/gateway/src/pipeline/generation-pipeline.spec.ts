import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import type { HoldLeases, HoldService } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { UpstreamError, type CancellationSignal } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import type { AttemptMetrics } from './attempt-metrics';
import { toClientError } from '@gateway/routing';
import { InFlightGenerations } from './in-flight-generations';
import type { GenerationOutcome } from './request-log-fields';
import type { SettlementRecorder } from './settlement-recorder';
import { COST_HEADER, GenerationPipeline } from './generation-pipeline';
import type { GovernedOutcome, GovernedRequest, RequestGovernance } from './request-governance';
import type { GenerationAnswer, PlannedGeneration, SynchronousGeneration } from './synchronous-generation';
import type { PlannedTask, TaskCreationRoute } from './task-creation-route';

const key = { id: 'key_1', accountId: 'acc_1' } as ResolvedKey;
const candidate = { id: 'ch_1', name: 'one' } as ChannelCandidate;
const LIMIT_HEADERS = { 'x-ratelimit-remaining-requests': '9' };

/** A governance that records what the pipeline told it, refusing when asked to. */
function recordingGovernance(refusal?: GatewayError) {
  const admitted: GovernedRequest[] = [];
  const settled: GovernedOutcome[] = [];
  const governance: RequestGovernance = {
    admit: (request) => {
      admitted.push(request);
      if (refusal) return Promise.reject(refusal);
      return Promise.resolve({ headers: LIMIT_HEADERS, settle: (outcome) => settled.push(outcome) });
    },
  };
  return { governance, admitted, settled };
}

/** The reply as far as the pipeline uses it: what was sent, with which status and headers. */
class FakeReply {
  readonly raw = Object.assign(new EventEmitter(), { writableFinished: false, headersSent: false });
  readonly sentHeaders: Record<string, string> = {};
  statusCode = 200;
  body: unknown;
  sent = false;
  headers(values: Record<string, string>) {
    Object.assign(this.sentHeaders, values);
    return this;
  }
  header(name: string, value: string) {
    this.sentHeaders[name] = value;
    return this;
  }
  code(status: number) {
    this.statusCode = status;
    return this;
  }
  send(body: unknown) {
    this.body = body;
    this.sent = true;
    this.raw.writableFinished = true;
    return this;
  }
}

function fakeRequest(): FastifyRequest {
  return {
    id: 'req_1',
    ip: '203.0.113.7',
    url: '/v1/images/generations',
    routeOptions: { config: { dialect: 'openai' } },
    raw: { complete: true, headers: {}, socket: { destroyed: false } },
    gateway: { apiKey: key, startedAt: Date.now() },
  } as unknown as FastifyRequest;
}

interface Plan extends PlannedGeneration {
  fails?: unknown;
}

/** A route that answers 'made' (cost 42) unless its plan says how it fails. */
const route: SynchronousGeneration<Plan, Plan, GenerationOutcome> = {
  holdStyle: 'row',
  holdHint: 'Add credit.',
  holdTtlMs: () => 1000,
  routeOf: (input) => input.route,
  plan: (input) => input,
  answer: async (
    plan: Plan,
    _call,
    _signal: CancellationSignal,
  ): Promise<GenerationAnswer<GenerationOutcome>> => {
    if (plan.fails) throw plan.fails;
    return {
      kind: 'whole',
      body: { made: true },
      warnings: [],
      served: { candidate, durationMs: 1 },
      outcome: { httpStatus: 200, endReason: 'completed', channelId: candidate.id, attempts: 1 },
    };
  },
  settlementOf: (_plan, outcome) => ({ captureMicros: outcome.httpStatus === 200 ? 42n : 0n }),
};

/** The route above, its answer held until `release`: a request that stays in flight meanwhile. */
function heldRoute() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const slow: typeof route = {
    ...route,
    answer: async (...args) => {
      await held;
      return route.answer(...args);
    },
  };
  return { slow, release };
}

function pipelineWith(governance: RequestGovernance, holdTaken = true) {
  const settlements: unknown[] = [];
  const logs: unknown[] = [];
  const holds: unknown[] = [];
  const recorder = {
    settle: (item: unknown) => settlements.push(item),
    logWithoutHold: (item: unknown) => logs.push(item),
  } as unknown as SettlementRecorder;
  const rowHolds = {
    take: async (input: unknown) => {
      holds.push(input);
      return holdTaken ? { ok: true } : { ok: false, reason: 'insufficient_balance' };
    },
  } as unknown as HoldService;
  const pipeline = new GenerationPipeline(
    {} as HoldLeases,
    rowHolds,
    recorder,
    new InFlightGenerations(),
    { observe: () => undefined } as unknown as AttemptMetrics,
    governance,
    {} as GatewayConfig,
    { error: () => undefined, warn: () => undefined } as unknown as Logger,
  );
  return { pipeline, settlements, logs, holds };
}

const plan: Plan = { model: 'draw-2', route: '/v1/images/generations', holdMicros: 100n };

describe('GenerationPipeline', () => {
  it('admits once with the plan, answers with the limit headers and the cost, and settles once', async () => {
    const { governance, admitted, settled } = recordingGovernance();
    const { pipeline, settlements } = pipelineWith(governance);
    const reply = new FakeReply();
    await pipeline.serve(route, plan, fakeRequest(), reply as unknown as FastifyReply);
    expect(admitted).toEqual([
      expect.objectContaining({
        clientIp: '203.0.113.7',
        model: 'draw-2',
        holdMicros: 100n,
        createsTask: false,
      }),
    ]);
    expect(reply.body).toEqual({ made: true });
    expect(reply.sentHeaders).toMatchObject({ ...LIMIT_HEADERS, [COST_HEADER]: '42' });
    expect(settled).toEqual([{ tokens: undefined, costMicros: 42n }]);
    expect(settlements).toHaveLength(1);
  });

  it('settles once with nothing captured when the upstream fails, and answers the failure with the headers', async () => {
    const { governance, settled } = recordingGovernance();
    const { pipeline, settlements } = pipelineWith(governance);
    const reply = new FakeReply();
    const failure = toClientError({ kind: 'overload', message: 'busy', retryable: true });
    await pipeline.serve(route, { ...plan, fails: failure }, fakeRequest(), reply as unknown as FastifyReply);
    expect(reply.statusCode).toBe(503);
    expect(reply.sentHeaders).toMatchObject(LIMIT_HEADERS);
    expect(reply.sentHeaders[COST_HEADER]).toBeUndefined();
    expect(settled).toEqual([{ tokens: undefined, costMicros: 0n }]);
    expect(settlements).toHaveLength(1);
  });

  it('settles once when the hold is refused, writing the refusal row and no settlement', async () => {
    const { governance, settled } = recordingGovernance();
    const { pipeline, settlements, logs } = pipelineWith(governance, false);
    const reply = new FakeReply();
    const serving = pipeline.serve(route, plan, fakeRequest(), reply as unknown as FastifyReply);
    await expect(serving).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(settled).toEqual([{ costMicros: 0n }]);
    expect(reply.sentHeaders).toMatchObject(LIMIT_HEADERS);
    expect(settlements).toHaveLength(0);
    expect(logs).toEqual([
      expect.objectContaining({ httpStatus: 402, model: 'draw-2', endReason: 'insufficient_balance' }),
    ]);
  });

  it('writes the refusal row and takes no hold when governance refuses; nothing is settled', async () => {
    const refusal = new GatewayError('rate_limited', 'Too many requests.');
    const { governance, settled } = recordingGovernance(refusal);
    const { pipeline, settlements, logs, holds } = pipelineWith(governance);
    await expect(
      pipeline.serve(route, plan, fakeRequest(), new FakeReply() as unknown as FastifyReply),
    ).rejects.toBe(refusal);
    expect(holds).toEqual([]);
    expect(settled).toEqual([]);
    expect(settlements).toHaveLength(0);
    expect(logs).toEqual([expect.objectContaining({ httpStatus: 429, endReason: 'refused' })]);
  });

  it('settles once as a client disconnect when the client leaves before the answer', async () => {
    const { governance, settled } = recordingGovernance();
    const { pipeline, settlements } = pipelineWith(governance);
    const reply = new FakeReply();
    const leaving: typeof route = {
      ...route,
      answer: async (_plan, _call, signal) => {
        reply.raw.emit('close');
        throw signal.aborted
          ? new UpstreamError({ kind: 'timeout', message: 'aborted', retryable: false })
          : 0;
      },
    };
    await pipeline.serve(leaving, plan, fakeRequest(), reply as unknown as FastifyReply);
    expect(reply.sent).toBe(false);
    expect(settled).toEqual([{ tokens: undefined, costMicros: 0n }]);
    expect(settlements).toEqual([expect.objectContaining({ captureMicros: 0n })]);
  });

  it('writes a whole answer at the end of the turn while another request is in flight, settled as before', async () => {
    const { governance, settled } = recordingGovernance();
    const { pipeline, settlements } = pipelineWith(governance);
    const { slow, release } = heldRoute();
    const first = new FakeReply();
    const serving = pipeline.serve(slow, plan, fakeRequest(), first as unknown as FastifyReply);
    const second = new FakeReply();
    await pipeline.serve(route, plan, fakeRequest(), second as unknown as FastifyReply);
    expect(second.sent).toBe(false);
    expect(settled).toEqual([{ tokens: undefined, costMicros: 42n }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.body).toEqual({ made: true });
    expect(second.sentHeaders).toMatchObject({ ...LIMIT_HEADERS, [COST_HEADER]: '42' });
    release();
    await serving;
    expect(first.body).toEqual({ made: true });
    expect(settlements).toHaveLength(2);
  });

  it('closes the connection of a deferred answer that cannot be written, and still writes the others', async () => {
    const { governance } = recordingGovernance();
    const { pipeline, settlements } = pipelineWith(governance);
    const { slow, release } = heldRoute();
    const serving = pipeline.serve(slow, plan, fakeRequest(), new FakeReply() as unknown as FastifyReply);
    const broken = Object.assign(new FakeReply(), {
      request: { id: 'req_broken' },
      send: () => {
        throw new Error('cannot write');
      },
    });
    const destroyed: boolean[] = [];
    Object.assign(broken.raw, { destroy: () => destroyed.push(true) });
    const healthy = new FakeReply();
    await pipeline.serve(route, plan, fakeRequest(), broken as unknown as FastifyReply);
    await pipeline.serve(route, plan, fakeRequest(), healthy as unknown as FastifyReply);
    await new Promise((resolve) => setImmediate(resolve));
    expect(destroyed).toEqual([true]);
    expect(healthy.body).toEqual({ made: true });
    release();
    await serving;
    expect(settlements).toHaveLength(3);
  });

  describe('task creation', () => {
    const hold = { requestId: 'video_1', model: 'delta-2', route: '/v1/videos', amount: 500n, ttlMs: 1000 };
    const taskRoute = (create: () => Promise<string>): TaskCreationRoute<PlannedTask, string> => ({
      key,
      route: '/v1/videos',
      modelOfRefused: () => 'delta-2',
      plan: async () => ({ hold, holdHint: 'Add credit.' }),
      create: async () => {
        const id = await create();
        return { created: id, taskId: id };
      },
    });

    it('admits it as a task, holds, and settles once with the task id', async () => {
      const { governance, admitted, settled } = recordingGovernance();
      const { pipeline } = pipelineWith(governance);
      const reply = new FakeReply();
      const created = await pipeline.createTask(
        taskRoute(async () => 'video_1'),
        fakeRequest(),
        reply as unknown as FastifyReply,
      );
      expect(created).toBe('video_1');
      expect(admitted).toEqual([expect.objectContaining({ createsTask: true, holdMicros: 500n })]);
      expect(reply.sentHeaders).toMatchObject(LIMIT_HEADERS);
      expect(settled).toEqual([{ costMicros: 0n, taskId: 'video_1' }]);
    });

    it('settles once without a task id when the row cannot be written', async () => {
      const { governance, settled } = recordingGovernance();
      const { pipeline } = pipelineWith(governance);
      const failing = taskRoute(async () => {
        throw new GatewayError('service_unavailable', 'Tasks cannot be stored right now.');
      });
      await expect(
        pipeline.createTask(failing, fakeRequest(), new FakeReply() as unknown as FastifyReply),
      ).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(settled).toEqual([{ costMicros: 0n }]);
    });

    it('answers a replayed Idempotency-Key without admitting or holding anything', async () => {
      const { governance, admitted } = recordingGovernance();
      const { pipeline, logs } = pipelineWith(governance);
      const replayed: TaskCreationRoute<PlannedTask, string> = {
        ...taskRoute(async () => 'never'),
        plan: async () => ({ replayed: 'video_0' }),
      };
      const created = await pipeline.createTask(
        replayed,
        fakeRequest(),
        new FakeReply() as unknown as FastifyReply,
      );
      expect(created).toBe('video_0');
      expect(admitted).toEqual([]);
      expect(logs).toEqual([]);
    });
  });
});
