// What one request of the chaos load came to (success, or which kind of failure), and the counts over
// a run. A failure kind names what the client saw, so that the report can be read against the faults.
import { answerProblem } from '../scenarios.mjs';
import { requestKindLabel } from './plan.mjs';

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const MESSAGE_CHARS = 90;

/** The message of an error answer in either dialect, or the start of the body when it has none. */
export function errorMessageOf(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.trim().slice(0, MESSAGE_CHARS) || '(empty body)';
  }
  const message = parsed?.error?.message ?? parsed?.message;
  return typeof message === 'string' ? message.slice(0, MESSAGE_CHARS) : text.slice(0, MESSAGE_CHARS);
}

/** The error event a stream ended with, when it sent one (`data: {"error": …}`). */
function streamErrorOf(text) {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:') || !line.includes('"error"')) continue;
    const message = errorMessageOf(line.slice('data:'.length).trim());
    if (message) return message;
  }
  return null;
}

function connectionFailure(errorCode) {
  if (errorCode === 'ECONNREFUSED') return 'connection refused';
  if (RESET_CODES.has(errorCode)) return 'connection reset';
  if (TIMEOUT_CODES.has(errorCode)) return 'timeout';
  return `connection error (${errorCode ?? 'unknown'})`;
}

/**
 * Classifies a finished request: `status` is null when no answer arrived; `errorCode` is set when the
 * connection failed (before the answer, or while its body was read).
 * Returns { ok, statusClass, failure } where failure is null for a success.
 */
export function classifyOutcome({ family, stream, status, text = '', errorCode = null }) {
  if (status === null) return { ok: false, statusClass: 'no answer', failure: connectionFailure(errorCode) };
  const statusClass = `${Math.floor(status / 100)}xx`;
  if (status === 200) {
    if (errorCode)
      return { ok: false, statusClass, failure: `200 cut off (${connectionFailure(errorCode)})` };
    const problem = answerProblem(family, stream, status, text);
    if (!problem) return { ok: true, statusClass, failure: null };
    if (!stream) return { ok: false, statusClass, failure: '200 without a complete answer' };
    const streamError = streamErrorOf(text);
    return {
      ok: false,
      statusClass,
      failure: streamError
        ? `200 stream ended by an error event: ${streamError}`
        : '200 stream without its end',
    };
  }
  return { ok: false, statusClass, failure: `${status} ${errorMessageOf(text)}` };
}

function increment(map, key) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

const byCountThenName = ([nameA, countA], [nameB, countB]) => countB - countA || nameA.localeCompare(nameB);

/**
 * Counts over classified outcomes ({ family, stream, ok, statusClass, failure }): requests sent,
 * successes, answers per status class, failures per kind (most frequent first) and per request kind.
 */
export function tallyOutcomes(outcomes) {
  const byStatusClass = new Map();
  const byFailure = new Map();
  const byRequestKind = new Map();
  for (const outcome of outcomes) {
    increment(byStatusClass, outcome.statusClass);
    if (outcome.failure) increment(byFailure, outcome.failure);
    const label = requestKindLabel(outcome);
    const kind = byRequestKind.get(label) ?? { sent: 0, succeeded: 0 };
    kind.sent += 1;
    if (outcome.ok) kind.succeeded += 1;
    byRequestKind.set(label, kind);
  }
  return {
    sent: outcomes.length,
    succeeded: outcomes.filter((outcome) => outcome.ok).length,
    byStatusClass: [...byStatusClass].sort(([a], [b]) => a.localeCompare(b)),
    byFailure: [...byFailure].sort(byCountThenName),
    byRequestKind: [...byRequestKind].sort(([a], [b]) => a.localeCompare(b)),
  };
}
