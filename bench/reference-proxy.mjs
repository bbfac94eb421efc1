// The thin reference proxy: the practical floor of a Node proxy on this machine. Fastify + one undici
// keep-alive Pool; it checks a key, parses the JSON body, forwards the original bytes to the simulator
// (native and OpenAI-style chat, streams piped through, and OpenAI-style image generations) and reads
// the usage from the answer.
//
//   PORT=4020 UPSTREAM_URL=http://127.0.0.1:4010 node bench/reference-proxy.mjs
import { AsyncResource } from 'node:async_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';

export const PROXY_KEY = 'bench-proxy-key';
const UPSTREAM_KEYS = { native: 'sim-kappa-key', openai: 'sim-compat-key' };

const usageTotals = { requests: 0, inputTokens: 0, outputTokens: 0 };

function recordUsage(usage) {
  if (!usage) return;
  usageTotals.requests += 1;
  usageTotals.inputTokens += usage.promptTokenCount ?? usage.prompt_tokens ?? 0;
  usageTotals.outputTokens += usage.candidatesTokenCount ?? usage.completion_tokens ?? 0;
}

function usageOf(message) {
  return message?.usageMetadata ?? message?.usage ?? null;
}

/** Reads usage from SSE events as chunks pass by; the last event that carries usage wins. */
function sseUsageScanner() {
  let pending = '';
  let lastUsage = null;
  return {
    push(chunk) {
      pending += chunk.toString('utf8');
      const events = pending.split(/\r?\n\r?\n/);
      pending = events.pop();
      for (const event of events) {
        if (!event.includes('"usage')) continue;
        const data = event.replace(/^data: ?/, '');
        try {
          lastUsage = usageOf(JSON.parse(data)) ?? lastUsage;
        } catch {
          // Not JSON (e.g. "[DONE]"): nothing to read.
        }
      }
    },
    finish: () => recordUsage(lastUsage),
  };
}

/**
 * Node 20's AsyncResource#bind builds two util.deprecate wrappers per call (DEP0172) and Fastify binds
 * one callback per request body. Those wrappers cost this proxy a sixth of its CPU per request and kept
 * each request's objects alive until a full collection. The gateway binds without them
 * (apps/gateway/src/platform/http/async-resource-bind.ts), and so do the floors it is measured against.
 */
export function useLeanAsyncResourceBind() {
  const probe = new AsyncResource('probe').bind(() => {});
  if (!Object.hasOwn(probe, 'asyncResource')) return;
  AsyncResource.prototype.bind = function bind(fn, thisArg) {
    return bindToResource(this, fn, thisArg);
  };
}

function bindToResource(resource, fn, thisArg) {
  return thisArg === undefined
    ? function (...args) {
        return resource.runInAsyncScope(fn, this, ...args);
      }
    : (...args) => resource.runInAsyncScope(fn, thisArg, ...args);
}

export async function startReferenceProxy({ port, host = '127.0.0.1', upstreamUrl }) {
  useLeanAsyncResourceBind();
  const upstream = new Pool(upstreamUrl, { pipelining: 1, keepAliveTimeout: 30_000 });
  const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
  // Keep the original bytes for forwarding and parse them once for the checks.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, { raw: body, json: JSON.parse(body) });
    } catch (error) {
      error.statusCode = 400;
      done(error);
    }
  });

  async function forward(request, reply, { family, path, stream }) {
    const { raw, json } = request.body ?? {};
    if (!json || typeof json !== 'object') return reply.code(400).send({ error: 'JSON body expected' });
    const headers = { 'content-type': 'application/json' };
    if (family === 'native') headers['x-vendor-api-key'] = UPSTREAM_KEYS.native;
    else headers.authorization = `Bearer ${UPSTREAM_KEYS.openai}`;
    if (request.headers['x-sim']) headers['x-sim'] = request.headers['x-sim'];
    const answer = await upstream.request({ path, method: 'POST', headers, body: raw });
    reply
      .code(answer.statusCode)
      .header('content-type', answer.headers['content-type'] ?? 'application/json');
    if (!stream) {
      const text = await answer.body.text();
      try {
        recordUsage(usageOf(JSON.parse(text)));
      } catch {
        // An upstream error page: forwarded as it is, no usage.
      }
      return reply.send(text);
    }
    const scanner = sseUsageScanner();
    answer.body.on('data', (chunk) => scanner.push(chunk));
    answer.body.once('end', () => scanner.finish());
    reply.raw.once('close', () => answer.body.destroy());
    return reply.send(answer.body);
  }

  app.post('/v1beta/models/*', (request, reply) => {
    if (request.headers['x-vendor-api-key'] !== PROXY_KEY) return reply.code(401).send({ error: 'bad key' });
    const [model, action] = request.params['*'].split(':');
    if (!model || (action !== 'generateContent' && action !== 'streamGenerateContent')) {
      return reply.code(404).send({ error: 'unknown route' });
    }
    const stream = action === 'streamGenerateContent';
    const query = stream ? '?alt=sse' : '';
    return forward(request, reply, {
      family: 'native',
      path: `/v1beta/models/${model}:${action}${query}`,
      stream,
    });
  });

  app.post('/v1/chat/completions', (request, reply) => {
    if (request.headers.authorization !== `Bearer ${PROXY_KEY}`)
      return reply.code(401).send({ error: 'bad key' });
    if (typeof request.body?.json?.model !== 'string')
      return reply.code(400).send({ error: 'model is required' });
    return forward(request, reply, {
      family: 'openai',
      path: '/v1/chat/completions',
      stream: !!request.body.json.stream,
    });
  });

  // Images come back as the upstream sent them (URLs or Base64); the answer carries no token usage.
  app.post('/v1/images/generations', (request, reply) => {
    if (request.headers.authorization !== `Bearer ${PROXY_KEY}`)
      return reply.code(401).send({ error: 'bad key' });
    if (typeof request.body?.json?.model !== 'string')
      return reply.code(400).send({ error: 'model is required' });
    return forward(request, reply, { family: 'openai', path: '/v1/images/generations', stream: false });
  });

  app.get('/__proxy/stats', () => usageTotals);
  app.addHook('onClose', () => upstream.close());
  await app.listen({ port, host });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await startReferenceProxy({
    port: Number(process.env.PORT ?? 4020),
    host: process.env.HOST ?? '127.0.0.1',
    upstreamUrl: process.env.UPSTREAM_URL ?? 'http://127.0.0.1:4010',
  });
  console.log(`reference proxy listening on ${app.server.address().port}`);
  for (const signal of ['SIGTERM', 'SIGINT'])
    process.once(signal, () => app.close().then(() => process.exit(0)));
}
