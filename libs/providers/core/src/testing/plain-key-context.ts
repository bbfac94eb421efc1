import type { AdapterContext, AdapterLogger } from '../adapter-context';
import type { PlainKeyCredentials } from '../channel-type/channel-credentials.parse';
import { systemClock } from '../clock';
import type { UpstreamHttpClient } from '../http-client';
import type { CancellationSignal } from '../http/request-cancellation';

/** A logger for tests that do not assert what an adapter logs. */
export const silentAdapterLogger: AdapterLogger = { warn: () => undefined, debug: () => undefined };

export interface PlainKeyContextOptions {
  baseUrl: string;
  apiKey: string;
  http: UpstreamHttpClient;
  signal?: CancellationSignal;
}

/** The context a plain-key channel's adapter is called with, on the real clock and a silent logger. */
export function plainKeyContext(options: PlainKeyContextOptions): AdapterContext<PlainKeyCredentials> {
  return {
    channel: { baseUrl: options.baseUrl, credentials: { apiKey: options.apiKey }, settings: {} },
    http: options.http,
    clock: systemClock,
    logger: silentAdapterLogger,
    signal: options.signal,
  };
}
