import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  batchedDestination,
  createAccessLogger,
  createLogger,
  LOG_BATCH_MAX_DELAY_MS,
  type GatewayLogger,
} from './create-logger';

const GATEWAY_KEY = 'gk_Ab12Cd34_' + 'x9Y8z7W6v5U4t3S2r1Q0p9O8n7M6l5K4';
const BASE64_BLOB = Buffer.alloc(600, 7).toString('base64');

function capturingLogger(): {
  logger: GatewayLogger;
  lines: () => Record<string, unknown>[];
  raw: () => string;
} {
  let output = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ level: 'info', name: 'test', destination });
  return {
    logger,
    raw: () => output,
    lines: () =>
      output
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes JSON lines with the name and level', () => {
    const { logger, lines } = capturingLogger();

    logger.debug('hidden');
    logger.info({ route: '/v1/images/generations' }, 'served');

    expect(lines()).toEqual([
      expect.objectContaining({ name: 'test', level: 30, route: '/v1/images/generations', msg: 'served' }),
    ]);
  });

  it('censors credential headers on requests and nested objects', () => {
    const { logger, lines } = capturingLogger();
    const headers = {
      authorization: 'Basic dXNlcjpwYXNz',
      'x-vendor-api-key': 'vendor-credential',
      cookie: 'session=abc',
      accept: 'application/json',
    };

    logger.info({ req: { method: 'POST', headers }, upstream: { headers }, headers });

    const [line] = lines();
    const censoredHeaders = {
      authorization: '[redacted]',
      'x-vendor-api-key': '[redacted]',
      cookie: '[redacted]',
      accept: 'application/json',
    };
    expect(line.req).toEqual({ method: 'POST', headers: censoredHeaders });
    expect(line.upstream).toEqual({ headers: censoredHeaders });
    expect(line.headers).toEqual(censoredHeaders);
  });

  it.each([
    'secret',
    'credentials',
    'key',
    'apiKey',
    'token',
    'password',
    'adminToken',
    'masterKey',
    'plaintext',
  ])('censors the field %s at the top level and one object down', (field) => {
    const { logger, lines } = capturingLogger();

    logger.info({ [field]: 'value-1', channel: { [field]: 'value-2', name: 'main' } });

    const [line] = lines();
    expect(line[field]).toBe('[redacted]');
    expect(line.channel).toEqual({ [field]: '[redacted]', name: 'main' });
  });

  it('replaces gateway keys wherever they appear, including messages, errors and child bindings', () => {
    const { logger, raw, lines } = capturingLogger();

    logger
      .child({ presented: GATEWAY_KEY })
      .warn({ detail: { deep: [`key ${GATEWAY_KEY} refused`] } }, GATEWAY_KEY);
    logger.error(new Error(`lookup failed for ${GATEWAY_KEY}`));

    expect(raw()).not.toContain(GATEWAY_KEY);
    const [warning, error] = lines();
    expect(warning).toMatchObject({ presented: '[redacted]', msg: '[redacted]' });
    expect(warning.detail).toEqual({ deep: ['key [redacted] refused'] });
    expect(error.msg).toBe('lookup failed for [redacted]');
  });

  it('replaces long base64 payloads but keeps short strings and the JSON valid', () => {
    const { logger, raw, lines } = capturingLogger();
    const shortBase64 = Buffer.alloc(100, 1).toString('base64');

    logger.info({
      inlineData: { mimeType: 'image/png', data: BASE64_BLOB },
      dataUrl: `data:image/png;base64,${BASE64_BLOB}`,
      escaped: `line\n${BASE64_BLOB}`,
      controlCharacter: `\u0001${BASE64_BLOB}`,
      shortBase64,
    });

    expect(raw()).not.toContain(BASE64_BLOB.slice(0, 513));
    const [line] = lines();
    expect(line.inlineData).toEqual({ mimeType: 'image/png', data: '[redacted]' });
    expect(line.dataUrl).toBe('data:image/png;base64,[redacted]');
    expect(line.escaped).toBe('line\n[redacted]');
    expect(line.controlCharacter).toBe('\u0001[redacted]');
    expect(line.shortBase64).toBe(shortBase64);
  });

  it('strips key query values from logged URLs and keeps the other parameters', () => {
    const { logger, lines } = capturingLogger();

    logger.info({ url: '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse&key=plain-credential' });
    logger.info('GET /v1beta/models?key=another-credential&pageSize=5');

    const [first, second] = lines();
    expect(first.url).toBe('/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse&key=[redacted]');
    expect(second.msg).toBe('GET /v1beta/models?key=[redacted]&pageSize=5');
  });

  it('replaces bearer credentials written out in text', () => {
    const { logger, lines } = capturingLogger();

    logger.info('upstream said: invalid header Bearer abc.def-123');

    expect(lines()[0].msg).toBe('upstream said: invalid header Bearer [redacted]');
  });
});

describe('createAccessLogger', () => {
  it('writes to the main logger destination with its name and level', () => {
    const { logger, lines } = capturingLogger();
    const accessLog = createAccessLogger(logger);

    accessLog.debug('hidden');
    accessLog.info({ requestId: 'r1', route: '/v1/chat/completions', status: 200 }, 'request');
    logger.info('after');

    expect(lines()).toEqual([
      expect.objectContaining({ name: 'test', level: 30, requestId: 'r1', status: 200, msg: 'request' }),
      expect.objectContaining({ name: 'test', msg: 'after' }),
    ]);
  });
});

describe('batchedDestination', () => {
  it('holds a lone line back for batching, then writes it within the maximum delay', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gateway-log-')), 'out.log');
    const destination = batchedDestination(file);
    const logger = createLogger({ level: 'info', name: 'quiet', destination });
    try {
      await once(destination, 'ready');
      logger.info('the only line');
      await delay(100);
      expect(readFileSync(file, 'utf8')).toBe('');

      const deadline = Date.now() + LOG_BATCH_MAX_DELAY_MS * 3;
      while (readFileSync(file, 'utf8') === '' && Date.now() < deadline) await delay(50);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ name: 'quiet', msg: 'the only line' });
    } finally {
      destination.end();
    }
  });
});
