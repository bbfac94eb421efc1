// What a chaos run does and when: the load's bounds, its request mix, and the fault schedule.
import { requestBody, requestPath } from '../scenarios.mjs';

/** The faults the script knows, by name, with what each one does (for the report). */
export const FAULT_DESCRIPTIONS = {
  postgres: 'pg_terminate_backend of every backend of the stack database',
  gateway: 'SIGKILL of the gateway, then a restart on the same port',
  redis: 'CLIENT KILL of every Redis connection of the stack processes',
  'worker-text': 'SIGKILL of worker-text, then a restart',
};

/**
 * Run settings per mode. Faults are far enough apart for a kill-and-restart (about 3 s here) to finish
 * before the next one starts. `settleDeadlineMs` covers the hold reaper's fixed 30 s interval plus the
 * short lease and hold lifetimes the run configures (see CHAOS_ENVIRONMENT).
 */
export const CHAOS_MODES = {
  full: {
    loadMs: 30_000,
    ratePerSecond: 120,
    concurrency: 16,
    faults: [
      { atMs: 5_000, fault: 'postgres' },
      { atMs: 10_000, fault: 'gateway' },
      { atMs: 15_000, fault: 'redis' },
      { atMs: 20_000, fault: 'worker-text' },
    ],
    settleDeadlineMs: 60_000,
  },
  smoke: {
    loadMs: 14_000,
    ratePerSecond: 60,
    concurrency: 8,
    faults: [
      { atMs: 2_000, fault: 'postgres' },
      { atMs: 4_000, fault: 'gateway' },
      { atMs: 7_000, fault: 'redis' },
      { atMs: 9_000, fault: 'worker-text' },
    ],
    settleDeadlineMs: 60_000,
  },
};

/**
 * Lifetimes short enough that what a killed process left open (its lease, its holds) lapses within the
 * run, and long enough that no live request outlives its hold (the streamed answers last ~50 ms).
 */
export const CHAOS_ENVIRONMENT = {
  HOLD_TTL_MS: '10000',
  LEASE_TTL_MS: '6000',
  SHUTDOWN_GRACE_MS: '3000',
};

/** The request kinds, taken in turn: both routes, each non-streamed and streamed. */
export const REQUEST_KINDS = [
  { family: 'native', stream: false },
  { family: 'native', stream: true },
  { family: 'openai', stream: false },
  { family: 'openai', stream: true },
];

export function requestKindLabel({ family, stream }) {
  return `${family === 'native' ? 'native' : 'OpenAI-style'} ${stream ? 'stream' : 'non-stream'}`;
}

const PROMPTS = { plain: 'Say hello', stream: 'Say hello [[sim chunks=3;interval=20]]' };

/** The most requests a run sends: its rate over its duration, so that it stops by itself. */
export function requestBudget(settings) {
  return Math.ceil((settings.loadMs / 1000) * settings.ratePerSecond);
}

/**
 * Request number `index` of the run: its kind (taken in turn), the account that sends it (changing
 * after each full turn of kinds, so every account sends every kind) and when it is due.
 */
export function plannedRequest(index, { accountCount, ratePerSecond }) {
  const kind = REQUEST_KINDS[index % REQUEST_KINDS.length];
  return {
    ...kind,
    accountIndex: Math.floor(index / REQUEST_KINDS.length) % accountCount,
    dueMs: (index * 1000) / ratePerSecond,
    path: requestPath(kind.family, kind.stream),
    body: requestBody(kind.family, {
      prompt: kind.stream ? PROMPTS.stream : PROMPTS.plain,
      stream: kind.stream,
    }),
  };
}

/** The headers that carry an inference key on each route family. */
export function keyHeaders(family, key) {
  return family === 'native' ? { 'x-vendor-api-key': key } : { authorization: `Bearer ${key}` };
}
