import type { AdapterLogger, ChannelConnection } from '../adapter-context';
import type { TaskAdapterContext } from '../capability/task-adapter';
import { systemClock, type Clock } from '../clock';
import { createUndiciHttpClient, type ClosableUpstreamHttpClient } from '../http/undici-http-client';
import {
  startRecordedUpstream,
  type RecordedResponse,
  type RecordedUpstream,
} from './recorded-upstream.server';

export interface LoggedWarning {
  message: string;
  fields?: Record<string, unknown>;
}

export interface RecordedUpstreamSession {
  /** Starts a recorded upstream for the running test; every one a test starts is closed after it. */
  replay(routes: Record<string, RecordedResponse>): Promise<RecordedUpstream>;
  /** The spec file's HTTP client. */
  http(): ClosableUpstreamHttpClient;
  /** What the adapter logged as warnings in the running test, in order. */
  readonly warnings: LoggedWarning[];
  /**
   * A task adapter's context for `channel`, as the task worker builds it: the session's HTTP client,
   * a logger that records warnings, and the real clock unless the test fixes one.
   */
  taskContext<Credentials, Settings>(
    channel: ChannelConnection<Credentials, Settings>,
    submissionKey: string,
    clock?: Clock,
  ): TaskAdapterContext<Credentials, Settings>;
}

/**
 * The fixture of an adapter spec against recorded upstreams: one HTTP client for the file, the
 * upstreams each test replays (closed after it) and the warnings the adapter logged in it. Call it at
 * the top of a describe block.
 */
export function useRecordedUpstreams(): RecordedUpstreamSession {
  let http: ClosableUpstreamHttpClient | undefined;
  const started: RecordedUpstream[] = [];
  const warnings: LoggedWarning[] = [];
  const logger: AdapterLogger = {
    warn: (message, fields) => warnings.push({ message, fields }),
    debug: () => undefined,
  };
  const client = (): ClosableUpstreamHttpClient => {
    if (!http) throw new Error('the recorded upstream session is used outside its describe block');
    return http;
  };

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http?.close());
  afterEach(async () => {
    warnings.length = 0;
    await Promise.all(started.splice(0).map((upstream) => upstream.close()));
  });

  return {
    replay: async (routes) => {
      const upstream = await startRecordedUpstream(routes);
      started.push(upstream);
      return upstream;
    },
    http: client,
    warnings,
    taskContext: (channel, submissionKey, clock = systemClock) => ({
      channel,
      http: client(),
      clock,
      logger,
      submissionKey,
    }),
  };
}

/** The body of the `index`-th request an upstream received, parsed as JSON. */
export function receivedJson(upstream: RecordedUpstream, index = 0): Record<string, unknown> {
  return JSON.parse(upstream.requests[index].body.toString('utf8'));
}
