// Time to the first streamed byte: one keep-alive connection, requests one after the other, each read
// to its end; the clock runs from just before the request is written to the first body byte.
// Run as a child of the harness (so its CPU counts as the load generator's):
//   node bench/lib/ttfb-client.mjs '<json: {url, headers, body, count, warmup, timeoutMs}>'
// Prints one JSON line: { requests, failures, firstFailure, ttfbUs: {p50,p90,p99,mean,max}, headersUs: {…} }.
import { Agent, request as httpRequest } from 'node:http';
import { percentile } from './stats.mjs';

function summarize(samples) {
  if (samples.length === 0) return null;
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return {
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    mean,
    max: Math.max(...samples),
  };
}

function timeOneRequest(agent, { url, headers, body, timeoutMs }) {
  return new Promise((resolve) => {
    const payload = Buffer.from(body);
    const startedAt = process.hrtime.bigint();
    let headersAt = null;
    let firstByteAt = null;
    let text = '';
    const elapsedUs = (at) => Number(at - startedAt) / 1000;
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
        timeout: timeoutMs,
      },
      (response) => {
        headersAt = process.hrtime.bigint();
        response.on('data', (chunk) => {
          firstByteAt ??= process.hrtime.bigint();
          text += chunk;
        });
        response.once('end', () => {
          const ok = response.statusCode === 200 && firstByteAt !== null;
          resolve({
            ok,
            error: ok ? null : `status ${response.statusCode}: ${text.slice(0, 300)}`,
            ttfbUs: firstByteAt ? elapsedUs(firstByteAt) : null,
            headersUs: elapsedUs(headersAt),
          });
        });
        response.once('error', (error) => resolve({ ok: false, error: error.message }));
      },
    );
    request.once('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.once('error', (error) => resolve({ ok: false, error: error.message }));
    request.end(payload);
  });
}

export async function measureTimeToFirstByte({ url, headers, body, count, warmup = 5, timeoutMs = 10_000 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ttfb = [];
  const toHeaders = [];
  let failures = 0;
  let firstFailure = null;
  try {
    for (let index = 0; index < warmup + count; index += 1) {
      const outcome = await timeOneRequest(agent, { url, headers, body, timeoutMs });
      if (index < warmup) continue;
      if (!outcome.ok) {
        failures += 1;
        firstFailure ??= outcome.error;
        continue;
      }
      ttfb.push(outcome.ttfbUs);
      toHeaders.push(outcome.headersUs);
    }
  } finally {
    agent.destroy();
  }
  return {
    requests: count,
    failures,
    firstFailure,
    ttfbUs: summarize(ttfb),
    headersUs: summarize(toHeaders),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureTimeToFirstByte(JSON.parse(process.argv[2]));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
