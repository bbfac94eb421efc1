import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_REDACTION_PATHS } from './log-redaction.paths';
import { REDACTED, scrubSensitiveText } from './sensitive-text.scrub';

export type GatewayLogger = Logger;

export interface LoggerOptions {
  level: string;
  /** Service name written on every line (`gateway`, `worker-video` …). */
  name: string;
  /** Where lines go; standard output when absent. Tests pass a stream they read back. */
  destination?: DestinationStream;
}

/**
 * A pino logger that cannot leak credentials: known credential fields and headers are censored by
 * path, and every finished line is scrubbed of gateway keys, `?key=` values, bearer tokens and long
 * base64 payloads wherever they hide (messages, error stacks, nested objects, child bindings).
 */
export function createLogger(options: LoggerOptions): GatewayLogger {
  const pinoOptions = {
    name: options.name,
    level: options.level,
    redact: { paths: [...LOG_REDACTION_PATHS], censor: REDACTED },
    hooks: { streamWrite: scrubSensitiveText },
  };
  return pino(pinoOptions, options.destination ?? batchedDestination(1));
}

/** How long a line may wait for others before its batch is written anyway. */
export const LOG_BATCH_MAX_DELAY_MS = 1000;

/**
 * A file descriptor or path written asynchronously in 4 KiB batches: a synchronous write per line
 * would cost one system call per request on the hot path. The batch is also written every
 * LOG_BATCH_MAX_DELAY_MS, so that on a quiet instance a line does not wait for 4 KiB of others (or for
 * the exit, which a killed process never reaches). Lines still buffered are flushed on exit.
 */
export function batchedDestination(dest: number | string): ReturnType<typeof pino.destination> {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: LOG_BATCH_MAX_DELAY_MS });
}

// perf-machinery: access-line-unredacted (docs/performance-machinery.md)
/**
 * The logger for the one line per request: same destination, name and level as `logger`, without its
 * redaction by path or its scrub of every finished line. That line has a fixed set of fields, all
 * written by the gateway (request id, method, route pattern, status, duration), none of them client
 * text or a credential; the wildcard paths walked every field of every line, about 4 % of the
 * gateway's CPU per request, and the scrub's patterns another 1 %.
 */
export function createAccessLogger(logger: GatewayLogger): GatewayLogger {
  const destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return pino({ level: logger.level, base: logger.bindings() }, destination);
}
