// The plain insert-and-enqueue of a video task: the floor that the gateway's POST /v1/videos is measured
// against (performance.md: task creation at 32 connections ≥ 0.5 of it, goal ≥ 0.8). Fastify, plain `pg`
// and `bullmq`, no Nest. Per request, the writes the gateway makes for the same body:
//   1. the hold: the gateway's own single-hold statement (dist/libs/billing, take-holds.statements: the
//      account's `held` raised under its row lock and one `holds` row; holds write no ledger entry) on a
//      pool committing with synchronous_commit=off, as the gateway's money pool does;
//   2. the task row: one INSERT with the gateway's columns and JSON of the same shape and size (request and
//      price snapshot as VideoTaskService writes them for the scenario's body), on an ordinary pool;
//   3. the gateway's step job (dist/libs/tasks: name, payload, job id and options) on the queue
//      `bench-baseline-tasks`, which no worker reads; not awaited, as the gateway does not await it;
//   4. a minimal video object (status `queued`).
// It does NOT look up or check the key (account, key and channel ids come from the environment), validate
// or normalise the body, admit the call (catalog, price book, circuit breaker, family rules), batch holds,
// honour Idempotency-Key, log, or release the hold when the insert fails. Its rows have kind
// `bench-baseline`, so no worker and no stranded-task sweep ever picks them up.
//
//   PORT=4030 DATABASE_URL=… REDIS_URL=… REDIS_PREFIX=bench ACCOUNT_ID=… KEY_ID=… CHANNEL_ID=… \
//   VIDEO_PRICE='{"perCall":"1000","perVideoSecond":{"default":"10000"}}' node bench/reference-task-server.mjs
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { useLeanAsyncResourceBind } from './reference-proxy.mjs';

/** The queue the step jobs go to: the gateway's job, on a queue nobody consumes. */
export const BASELINE_QUEUE = 'bench-baseline-tasks';
/** The rows' kind: not a kind any worker or sweep handles. */
export const BASELINE_TASK_KIND = 'bench-baseline';
/** The route a hold names, as the gateway's video route writes it. */
const ROUTE = '/v1/videos';
/** VIDEO_TASK_DEADLINE_MS's default, and the hold's margin beyond it (video-deadline.util). */
const DEADLINE_MS = 60 * 60_000;
const HOLD_MARGIN_MS = 60 * 60_000;
/** DATABASE_POOL_SIZE's default: the gateway's serving and money pools have this many connections each. */
const POOL_SIZE = 10;

const INSERT_TASK = {
  name: 'bench_baseline_insert_task',
  text: `INSERT INTO tasks (id, kind, key_id, account_id, model, channel_id, status, request, hold_request_id,
                            price_snapshot, request_hash, deadline_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7::jsonb, $1, $8::jsonb, $9, $10, $11, $11)`,
};

/** The gateway's built modules the baseline shares: the hold statement and the step job's shape. */
function gatewayBuild() {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'libs');
  const require = createRequire(import.meta.url);
  const { takeOneHoldStatement } = require(join(dist, 'billing', 'src', 'hold', 'take-holds.statements.js'));
  const { TASK_STEP_JOB_NAME, taskStepJobOptions } = require(
    join(dist, 'tasks', 'src', 'jobs', 'task-step.job.js'),
  );
  return { takeOneHoldStatement, TASK_STEP_JOB_NAME, taskStepJobOptions };
}

/** `video_` and 128 random bits, URL-safe: the gateway's public task id. */
export function newVideoTaskId() {
  return `video_${randomBytes(16).toString('base64url')}`;
}

/** `1280x720` → `720p` (the short side), as the gateway's planned call names the resolution. */
function resolutionOf(size) {
  const sides = String(size).split('x').map(Number);
  return sides.length === 2 && sides.every((side) => side > 0) ? `${Math.min(...sides)}p` : null;
}

/**
 * The task row and hold of one creation, from the body as it came (no validation): the planned call and
 * price snapshot have the fields VideoTaskService writes for a text-to-video body of this scenario.
 * price: { perCall, perVideoSecond: { default } } (micro-units, as the admin API takes them).
 */
export function videoTaskWrites({ body, rawBody, price, taskId, nowMs }) {
  const seconds = Number(body.seconds);
  const resolution = resolutionOf(body.size);
  const perCallMicros = BigInt(price.perCall ?? 0);
  const perSecondMicros = BigInt(price.perVideoSecond?.default ?? 0);
  const request = {
    kind: 'video',
    mode: 'text',
    family: body.model,
    prompt: body.prompt,
    seconds,
    size: body.size,
    resolution,
    aspectRatio: null,
    images: [],
    clips: [],
    subjects: [],
    remixOf: null,
    metadata: null,
    extras: {},
  };
  const priceSnapshot = {
    kind: 'video',
    resolution,
    heldSeconds: seconds,
    perCallMicros: perCallMicros.toString(),
    perSecondMicros: perSecondMicros.toString(),
  };
  return {
    task: {
      id: taskId,
      model: body.model,
      request: JSON.stringify(request),
      priceSnapshot: JSON.stringify(priceSnapshot),
      // The gateway hashes its normalised request; any SHA-256 in hex has the same size.
      requestHash: createHash('sha256').update(rawBody).digest('hex'),
      deadlineAt: new Date(nowMs + DEADLINE_MS).toISOString(),
      createdAt: new Date(nowMs).toISOString(),
    },
    hold: {
      amountMicros: perCallMicros + BigInt(seconds) * perSecondMicros,
      ttlMs: DEADLINE_MS + HOLD_MARGIN_MS,
    },
  };
}

/** The answer: the OpenAI-style video object of a task just queued. */
export function queuedVideoObject(task, body) {
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status: 'queued',
    progress: 0,
    created_at: Math.floor(Date.parse(task.createdAt) / 1000),
    completed_at: null,
    expires_at: null,
    prompt: typeof body.prompt === 'string' ? body.prompt : null,
    seconds: body.seconds === undefined ? '' : String(body.seconds),
    size: typeof body.size === 'string' ? body.size : null,
    remixed_from_video_id: null,
    error: null,
  };
}

export async function startTaskBaseline({
  port,
  host = '127.0.0.1',
  databaseUrl,
  redisUrl,
  redisPrefix,
  ids,
  price,
}) {
  useLeanAsyncResourceBind();
  const { takeOneHoldStatement, TASK_STEP_JOB_NAME, taskStepJobOptions } = gatewayBuild();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const moneyPool = new pg.Pool({
    connectionString: databaseUrl,
    max: POOL_SIZE,
    options: '-c synchronous_commit=off',
  });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(BASELINE_QUEUE, { connection: redis, prefix: redisPrefix });
  const counts = { created: 0, refused: 0, enqueueFailures: 0 };

  const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
  // Keep the original bytes for the request hash, as the gateway does.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    try {
      done(null, { raw, json: JSON.parse(raw) });
    } catch (error) {
      error.statusCode = 400;
      done(error);
    }
  });

  app.post('/v1/videos', async (request, reply) => {
    const { raw, json } = request.body ?? {};
    const taskId = newVideoTaskId();
    const { task, hold } = videoTaskWrites({
      body: json ?? {},
      rawBody: raw ?? '',
      price,
      taskId,
      nowMs: Date.now(),
    });
    const { rows } = await moneyPool.query({
      ...takeOneHoldStatement,
      values: [taskId, ids.accountId, ids.keyId, task.model, ROUTE, hold.amountMicros.toString(), hold.ttlMs],
    });
    if (!rows[0]?.taken) {
      counts.refused += 1;
      return reply.code(402).send({ error: { message: 'insufficient balance', type: 'insufficient_quota' } });
    }
    await pool.query({
      ...INSERT_TASK,
      values: [
        task.id,
        BASELINE_TASK_KIND,
        ids.keyId,
        ids.accountId,
        task.model,
        ids.channelId,
        task.request,
        task.priceSnapshot,
        task.requestHash,
        task.deadlineAt,
        task.createdAt,
      ],
    });
    counts.created += 1;
    queue.add(TASK_STEP_JOB_NAME, { taskId }, taskStepJobOptions(taskId)).catch(() => {
      counts.enqueueFailures += 1;
    });
    return queuedVideoObject(task, json ?? {});
  });

  app.get('/__baseline/stats', () => counts);
  app.addHook('onClose', async () => {
    await queue.close();
    redis.disconnect();
    await Promise.all([pool.end(), moneyPool.end()]);
  });
  await app.listen({ port, host });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const required = (name) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const app = await startTaskBaseline({
    port: Number(process.env.PORT ?? 4030),
    host: process.env.HOST ?? '127.0.0.1',
    databaseUrl: required('DATABASE_URL'),
    redisUrl: required('REDIS_URL'),
    redisPrefix: required('REDIS_PREFIX'),
    ids: { accountId: required('ACCOUNT_ID'), keyId: required('KEY_ID'), channelId: required('CHANNEL_ID') },
    price: JSON.parse(required('VIDEO_PRICE')),
  });
  console.log(`task baseline listening on ${app.server.address().port}`);
  for (const signal of ['SIGTERM', 'SIGINT'])
    process.once(signal, () => app.close().then(() => process.exit(0)));
}
