import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWrkDuration, parseWrkOutput, parseWrkText } from './wrk.mjs';

const REPORT = `Running 10s test @ http://127.0.0.1:4010/v1/chat/completions
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.12ms    1.05ms  42.31ms   91.20%
    Req/Sec    20.51k     1.02k   22.00k    70.00%
  Latency Distribution
     50%  874.00us
     75%    3.40ms
     90%    4.12ms
     99%    1.20s
  204312 requests in 10.01s, 133.30MB read
  Socket errors: connect 0, read 3, write 1, timeout 2
  Non-2xx or 3xx responses: 7
Requests/sec:  20411.39
Transfer/sec:     13.32MB
`;

test('wrk durations become microseconds in every unit wrk prints', () => {
  assert.equal(parseWrkDuration('874.00us'), 874);
  assert.equal(parseWrkDuration('3.40ms'), 3400);
  assert.equal(parseWrkDuration('1.20s'), 1_200_000);
  assert.equal(parseWrkDuration('2.00m'), 120_000_000);
  assert.throws(() => parseWrkDuration('fast'));
});

test('the text report gives counts, rate, percentiles and every kind of error', () => {
  const parsed = parseWrkText(REPORT);
  assert.equal(parsed.requests, 204312);
  assert.equal(parsed.durationUs, 10_010_000);
  assert.equal(parsed.rps, 20411.39);
  assert.deepEqual(parsed.latencyUs, {
    p50: 874,
    p75: 3400,
    p90: 4120,
    p99: 1_200_000,
    mean: 3120,
    max: 42310,
  });
  assert.deepEqual(parsed.errors, { non2xx: 7, connect: 0, read: 3, write: 1, timeout: 2, total: 13 });
});

test('a clean report has zero errors', () => {
  const clean = REPORT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
  assert.equal(parseWrkText(clean).errors.total, 0);
});

test('the Lua done() line wins over the rounded text figures', () => {
  const exact =
    'BENCH_JSON {"requests":204312,"durationUs":10010123,"bytes":1,"non2xx":7,"connect":0,"read":3,"write":1,' +
    '"timeout":2,"meanUs":3120.5,"p50Us":873.4,"p90Us":4119.9,"p99Us":1200000.0,"maxUs":42310.0}\n';
  const parsed = parseWrkOutput(REPORT + exact);
  assert.equal(parsed.latencyUs.p50, 873.4);
  assert.equal(parsed.latencyUs.p90, 4119.9);
  assert.equal(parsed.durationUs, 10_010_123);
  assert.ok(Math.abs(parsed.rps - (204312 * 1e6) / 10_010_123) < 1e-9);
  assert.equal(parsed.errors.total, 13);
  assert.equal(parsed.textLatencyUs.p50, 874);
});

test('a report without a request count is refused', () => {
  assert.throws(() => parseWrkText('unable to connect to 127.0.0.1:1 Connection refused'), /request count/);
});
