// The body-memory scenario: how much the gateway's resident memory grows while it takes and validates
// one 20 MiB alpha reference2video body (performance.md: peak growth ≤ 3× the body, goal ≤ 2×). Linux
// only: the peak is VmHWM of /proc/<pid>/status, set back to the current RSS through clear_refs before
// each request (writing it needs root or the process's owner).
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pngjs from 'pngjs';
import { Client, request } from 'undici';
import { readResidentBytes } from './proc-stats.mjs';
import { answerProblem, requestPath } from './scenarios.mjs';
import { median } from './stats.mjs';

/** performance.md's "20 MB": the alpha route's own body limit, 20 MiB, which the body fills exactly. */
export const BODY_MEMORY_BYTES = 20 * 1024 * 1024;
/** The check request's body: the same shape, small enough to leave no mark on the process's memory. */
export const BODY_MEMORY_CHECK_BYTES = 64 * 1024;
/** How long after the answer the retained RSS is read: work the gateway defers past its answer is done. */
export const RETAINED_AFTER_MS = 1000;
const MIB = 1024 * 1024;
/** The smallest side the alpha rules take is 128; 256×256 is the integration tests' image. */
const IMAGE_SIDE = 256;
const ANSWER_TIMEOUT_MS = 60_000;

/**
 * A reference2video body of exactly `size` bytes, built as apps/gateway/test/alpha-limits.int-spec.ts
 * builds it: one subject whose image is a real PNG header padded with zero bytes (the gateway reads
 * only the header), and the prompt's last few spaces for the bytes Base64 cannot fill.
 */
export function alphaReferenceBody(size, marker = 'Benchmark body memory') {
  const skeleton = (base64, filler) =>
    JSON.stringify({
      model: 'alphaq2-pro',
      prompt: `${marker} @cat${filler}`,
      subjects: [{ id: 'cat', images: [`data:image/png;base64,${base64}`] }],
      duration: 5,
      resolution: '720p',
    });
  const room = size - Buffer.byteLength(skeleton('', ''));
  if (room < 0) throw new Error(`a reference2video body needs more than ${size} bytes`);
  const base64Length = Math.floor(room / 4) * 4;
  const image = Buffer.alloc((base64Length / 4) * 3);
  const png = pngjs.PNG.sync.write(new pngjs.PNG({ width: IMAGE_SIDE, height: IMAGE_SIDE }));
  png.copy(image);
  return Buffer.from(skeleton(image.toString('base64'), ' '.repeat(room - base64Length)));
}

/** VmHWM (the peak RSS since start or since the last reset) of /proc/<pid>/status, in bytes; null when absent. */
export function parsePeakResidentBytes(statusText) {
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(statusText);
  return match ? Number(match[1]) * 1024 : null;
}

function readPeakResidentBytes(pid) {
  const peak = parsePeakResidentBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (peak === null) throw new Error(`/proc/${pid}/status has no VmHWM`);
  return peak;
}

/** What one request did to the process's memory; growth and retained growth may be negative. */
export function bodyMemoryFigures({ bodyBytes, rssBeforeBytes, peakBytes, rssAfterBytes, answerMs }) {
  const growthBytes = peakBytes - rssBeforeBytes;
  return {
    bodyBytes,
    rssBeforeBytes,
    peakBytes,
    growthBytes,
    ratio: growthBytes / bodyBytes,
    rssAfterBytes,
    retainedBytes: rssAfterBytes - rssBeforeBytes,
    answerMs,
  };
}

/**
 * One request of `body` on a fresh connection, framed by the main process's VmRSS before, its peak
 * (VmHWM, reset just before) once the whole answer is read, and its VmRSS RETAINED_AFTER_MS later.
 * Resolves with a run record's fields: one request, an error when the answer is not an accepted task.
 */
export async function runBodyMemoryRound({ target, family, headers, body }) {
  const pid = target.mainPid;
  const rssBeforeBytes = readResidentBytes(pid);
  if (rssBeforeBytes === 0) throw new Error(`process ${pid} shows no resident memory (has it exited?)`);
  // "5" sets VmHWM back to the current RSS, so the peak read after the answer is this request's.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const client = new Client(target.baseUrl);
  const startedAt = performance.now();
  let problem;
  try {
    const answer = await request(`${target.baseUrl}${requestPath(family, false)}`, {
      dispatcher: client,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      headersTimeout: ANSWER_TIMEOUT_MS,
      bodyTimeout: ANSWER_TIMEOUT_MS,
    });
    problem = answerProblem(family, false, answer.statusCode, await answer.body.text());
  } finally {
    await client.close();
  }
  const answerMs = performance.now() - startedAt;
  const peakBytes = readPeakResidentBytes(pid);
  await sleep(RETAINED_AFTER_MS);
  return {
    requests: 1,
    errors: { total: problem ? 1 : 0, firstFailure: problem },
    bodyMemory: bodyMemoryFigures({
      bodyBytes: body.length,
      rssBeforeBytes,
      peakBytes,
      rssAfterBytes: readResidentBytes(pid),
      answerMs,
    }),
  };
}

/**
 * The scenario's figures for one target: the check request (round 0, the first such body the process
 * took), every measured round, and the medians of the measured rounds whose answer was an accepted task
 * (a refused body says nothing about validating one).
 */
export function summarizeBodyMemory(runs) {
  const rounds = runs.filter((run) => run.round >= 1);
  const accepted = rounds.filter((run) => run.bodyMemory && run.errors?.total === 0);
  const medianOf = (field) => median(accepted.map((run) => run.bodyMemory[field]));
  return {
    first: runs.find((run) => run.round === 0)?.bodyMemory ?? null,
    rounds: rounds.map((run) => ({
      round: run.round,
      problem: run.failure ?? run.errors?.firstFailure ?? null,
      figures: run.bodyMemory ?? null,
    })),
    roundsUsed: accepted.length,
    bodyBytes: medianOf('bodyBytes'),
    rssBeforeBytes: medianOf('rssBeforeBytes'),
    growthBytes: medianOf('growthBytes'),
    ratio: medianOf('ratio'),
    worstRatio: accepted.length === 0 ? null : Math.max(...accepted.map((run) => run.bodyMemory.ratio)),
    retainedBytes: medianOf('retainedBytes'),
  };
}

/** Bytes as MiB with one decimal, a real minus sign below zero; "—" when not measured. */
export function formatMiB(bytes) {
  if (typeof bytes !== 'number') return '—';
  const text = (Math.abs(bytes) / MIB).toFixed(1);
  return bytes < 0 && text !== '0.0' ? `−${text}` : text;
}

/** The progress line of one round. */
export function describeBodyMemory(record) {
  const figures = record.bodyMemory;
  return (
    `peak growth ${formatMiB(figures.growthBytes)} MiB = ${figures.ratio.toFixed(2)}× the ${formatMiB(figures.bodyBytes)} MiB body ` +
    `(RSS before ${formatMiB(figures.rssBeforeBytes)} MiB, retained after ${RETAINED_AFTER_MS / 1000} s ` +
    `${formatMiB(figures.retainedBytes)} MiB, answer ${Math.round(figures.answerMs)} ms) errors ${record.errors.total}`
  );
}
