// The chaos load: a bounded, paced loop of requests through one undici pool, each outcome recorded.
// Request n is due n / rate seconds after the start; `concurrency` loops take the next request when they
// are free, so a slow or absent gateway lowers the rate instead of piling requests up. The run stops
// after `loadMs` or its request budget, whichever comes first, and every request has a deadline.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { classifyOutcome } from './outcomes.mjs';
import { keyHeaders, plannedRequest, requestBudget } from './plan.mjs';

const REQUEST_TIMEOUT_MS = 10_000;
const KEEP_BODY_CHARS = 64 * 1024;

async function sendOne(pool, planned, key) {
  let status = null;
  let text = '';
  let errorCode = null;
  try {
    const answer = await pool.request({
      method: 'POST',
      path: planned.path,
      headers: { 'content-type': 'application/json', ...keyHeaders(planned.family, key) },
      body: planned.body,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    status = answer.statusCode;
    answer.body.setEncoding('utf8');
    for await (const chunk of answer.body) if (text.length < KEEP_BODY_CHARS) text += chunk;
  } catch (error) {
    errorCode = error.code ?? error.cause?.code ?? error.name;
  }
  return { status, text, errorCode };
}

/**
 * Sends the run's requests to `baseUrl` with `keys` (one per account) and returns every outcome:
 * { family, stream, accountIndex, startMs, endMs, status, ok, statusClass, failure }, times in ms
 * since `startedAt` (a performance.now() value shared with the fault schedule).
 */
export async function runLoad({ baseUrl, keys, settings, startedAt }) {
  const pool = new Pool(baseUrl, { connections: settings.concurrency });
  const budget = requestBudget(settings);
  const outcomes = [];
  let next = 0;
  const now = () => performance.now() - startedAt;

  async function loop() {
    while (next < budget) {
      const planned = plannedRequest(next, {
        accountCount: keys.length,
        ratePerSecond: settings.ratePerSecond,
      });
      next += 1;
      if (planned.dueMs >= settings.loadMs) return;
      const wait = planned.dueMs - now();
      if (wait > 0) await sleep(wait);
      const startMs = now();
      const answer = await sendOne(pool, planned, keys[planned.accountIndex]);
      outcomes.push({
        family: planned.family,
        stream: planned.stream,
        accountIndex: planned.accountIndex,
        startMs,
        endMs: now(),
        status: answer.status,
        ...classifyOutcome({ ...planned, ...answer }),
      });
    }
  }

  try {
    await Promise.all(Array.from({ length: settings.concurrency }, loop));
  } finally {
    await pool.destroy();
  }
  return outcomes.sort((a, b) => a.startMs - b.startMs);
}
