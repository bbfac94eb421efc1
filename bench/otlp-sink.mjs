// A tiny OTLP/HTTP trace receiver for the gateway-traced target: it takes what the gateway's exporter
// posts to /v1/traces (JSON), counts the spans and answers at once, as a collector on loopback would.
// It keeps nothing, so that a long run costs it no memory; its own CPU is reported as its own group,
// never the gateway's. GET /__sink/stats answers the counts (the harness checks that spans arrived).
//
//   PORT=4318 node bench/otlp-sink.mjs
import { createServer } from 'node:http';

/** Spans in one OTLP/HTTP JSON export (resourceSpans → scopeSpans → spans). */
export function countSpans(exported) {
  let spans = 0;
  for (const resource of exported?.resourceSpans ?? []) {
    for (const scope of resource?.scopeSpans ?? []) spans += scope?.spans?.length ?? 0;
  }
  return spans;
}

/**
 * Starts the sink; resolves with its URL (the OTLP endpoint: the exporter appends /v1/traces), its
 * running counts and `close`. An export that is not JSON is counted as refused and answered 400, as a
 * collector would; any other path is 404.
 */
export async function startOtlpSink({ port = 0, host = '127.0.0.1' } = {}) {
  const stats = { exports: 0, spans: 0, bytes: 0, refused: 0 };
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/__sink/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      request.resume();
      response.writeHead(404).end();
      return;
    }
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      stats.bytes += body.length;
      let spans;
      try {
        spans = countSpans(JSON.parse(body.toString('utf8')));
      } catch {
        stats.refused += 1;
        response.writeHead(400, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      stats.exports += 1;
      stats.spans += spans;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host}:${server.address().port}`,
    stats,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sink = await startOtlpSink({ port: Number(process.env.PORT ?? 0) });
  console.log(`otlp sink listening on ${sink.url}`);
  for (const signal of ['SIGTERM', 'SIGINT'])
    process.once(signal, () => sink.close().then(() => process.exit(0)));
}
