import type { Clock } from './clock';
import type { UpstreamHttpClient } from './http-client';
import type { CancellationSignal } from './http/request-cancellation';

export interface AdapterLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/**
 * What an adapter knows of the channel it calls. The credentials and settings were parsed by the
 * channel type's definition once, when the row was loaded, so an adapter reads typed fields and
 * never splits a secret string itself.
 */
export interface ChannelConnection<Credentials = unknown, Settings = unknown> {
  baseUrl: string;
  /** Never log them. */
  credentials: Credentials;
  settings: Settings;
}

/** Everything an adapter call may use besides its request: adapters reach nothing else. */
export interface AdapterContext<Credentials = unknown, Settings = unknown> {
  channel: ChannelConnection<Credentials, Settings>;
  http: UpstreamHttpClient;
  clock: Clock;
  logger: AdapterLogger;
  /** Aborted when the client goes away or the request deadline passes. */
  signal?: CancellationSignal;
  /** Time allowed until the upstream's response headers arrive. */
  headersTimeoutMs?: number;
}
