import { channelTypeDefinition, taskAdapterFor } from '@gateway/providers';
import {
  createUndiciHttpClient,
  parseChannelConnection,
  UpstreamError,
  type ClosableUpstreamHttpClient,
  type TaskAdapter,
  type TaskAdapterContext,
  type TaskCall,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';

const CALL: TaskCall = {
  upstreamModel: 'beta-4.0',
  request: {
    submission: { prompt: 'a signed kite', size: 1024 * 1024, force_single: true },
    resultOptions: {},
  },
};
const MINUTE_MS = 60_000;

/**
 * The beta channel type's signed calls (BETA-HMAC-SHA256, upstreams.md §4.2) against the simulator's
 * verifier, which was written from the spec on its own: the gateway's requests pass; a wrong secret,
 * an unknown access key, a body changed after signing and a clock 16 minutes off do not.
 */
describe('beta signing against the simulator', () => {
  let simulator: RunningSimulator;
  let http: ClosableUpstreamHttpClient;
  let adapter: TaskAdapter;

  /** The context a beta channel with this key gets, as the catalog parses it; `nowMs` is its clock. */
  const contextFor = (
    secret: string,
    options: { nowMs?: number; http?: UpstreamHttpClient } = {},
  ): TaskAdapterContext => {
    const definition = channelTypeDefinition('beta');
    if (!definition) throw new Error('beta has no definition');
    const parse = parseChannelConnection(definition, { baseUrl: simulator.url, secret, settings: {} });
    if (!parse.ok) throw new Error(parse.message);
    return {
      channel: parse.connection,
      http: options.http ?? http,
      clock: { now: () => options.nowMs ?? Date.now() },
      logger: { warn: () => undefined, debug: () => undefined },
      submissionKey: 'bt_signing',
    };
  };
  const refusalOf = async (context: TaskAdapterContext): Promise<UpstreamError> => {
    try {
      await adapter.submit(CALL, context);
    } catch (error) {
      if (error instanceof UpstreamError) return error;
      throw error;
    }
    throw new Error('the simulator accepted the call');
  };

  beforeAll(async () => {
    simulator = await startSimulator();
    http = createUndiciHttpClient();
    const beta = taskAdapterFor('beta');
    if (!beta) throw new Error('beta has no task adapter');
    adapter = beta;
  });
  afterAll(async () => {
    await http.close();
    await simulator.close();
  });

  it('is accepted: the task is submitted, then read back with a signed query', async () => {
    const context = contextFor('sim-beta-ak|sim-beta-sk');
    const { handle } = await adapter.submit(CALL, context);
    expect(await adapter.poll(handle, context)).toMatchObject({
      state: 'completed',
      usage: { images: { count: 1, size: '1k' } },
    });
  });

  it('is accepted with a clock 14 minutes off, within the 15 the verifier allows', async () => {
    await expect(
      adapter.submit(CALL, contextFor('sim-beta-ak|sim-beta-sk', { nowMs: Date.now() - 14 * MINUTE_MS })),
    ).resolves.toHaveProperty('handle');
  });

  it.each([
    [
      'a wrong secret',
      () => contextFor('sim-beta-ak|not-the-secret'),
      'signature we calculated does not match',
    ],
    ['an unknown access key', () => contextFor('unknown-ak|sim-beta-sk'), 'does not exist'],
    [
      'a clock 16 minutes behind',
      () => contextFor('sim-beta-ak|sim-beta-sk', { nowMs: Date.now() - 16 * MINUTE_MS }),
      'more than 15 minutes',
    ],
    [
      'a clock 16 minutes ahead',
      () => contextFor('sim-beta-ak|sim-beta-sk', { nowMs: Date.now() + 16 * MINUTE_MS }),
      'more than 15 minutes',
    ],
    [
      'a body changed after it was signed',
      () =>
        contextFor('sim-beta-ak|sim-beta-sk', {
          // Between the signer and the wire: the same headers, another prompt.
          http: {
            request: (request) =>
              http.request({ ...request, body: String(request.body).replace('signed kite', 'forged kite') }),
          },
        }),
      'X-Content-Sha256 header does not match',
    ],
  ])('is refused with %s: a 401 the adapter reads as auth', async (_case, context, reason) => {
    const error = await refusalOf(context());
    expect(error.failure).toMatchObject({
      kind: 'auth',
      retryable: false,
      httpStatus: 401,
      upstreamCode: 'SignatureDoesNotMatch',
    });
    expect(error.failure.message).toContain(reason);
  });
});
