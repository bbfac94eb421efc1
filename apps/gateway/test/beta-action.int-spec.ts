import { imageSize } from 'image-size';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { BetaActionClient, GET_RESULT_ACTION, SUBMIT_ACTION } from './beta-action.client';

/** BETA_TEST_PRICES: one 1k image. */
const ONE_1K_IMAGE = 20_000n;
const CREDIT = 1_000_000n;

interface SimulatedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  authenticated: boolean;
  body: string;
}

/**
 * The beta family's official routes through the gateway (`POST /bt?Action=…&Version=2022-08-31`)
 * against the beta simulator: a signed channel for beta-4.0, a relay channel for beta-4.5.
 */
describe('/bt: the beta Action API through the gateway', () => {
  let harness: GatewayHarness;
  let accountId: string;
  let client: BetaActionClient;
  let other: BetaActionClient;

  const submitBody = (prompt: string, extra: Record<string, unknown> = {}) => ({
    req_key: 'beta_t2i_v40',
    prompt,
    width: 1024,
    height: 1024,
    force_single: true,
    ...extra,
  });
  const accountRow = async (id: string) =>
    (
      await harness.query<{ balance: string; held: string }>(
        'select balance, held from accounts where id = $1',
        [id],
      )
    )[0];
  const taskRows = (id: string) =>
    harness.query<{ id: string; status: string; hold_request_id: string; failure_reason: string | null }>(
      'select id, status, hold_request_id, failure_reason from tasks where account_id = $1 order by created_at',
      [id],
    );
  const logRow = async (requestId: string) =>
    (
      await harness.query<{ route: string; end_reason: string; image_count: number; cost_micros: string }>(
        'select route, end_reason, image_count, cost_micros from request_logs where request_id = $1',
        [requestId],
      )
    )[0];
  /** A refusal's log row, once the batched writer has written it. */
  const refusalLogRow = async (requestId: string | undefined) => {
    await harness.settled();
    const rows = await harness.query<{
      route: string;
      http_status: number;
      end_reason: string;
      cost_micros: string;
    }>('select route, http_status, end_reason, cost_micros from request_logs where request_id = $1', [
      requestId,
    ]);
    return rows[0];
  };
  const simulatedRequests = async (): Promise<SimulatedRequest[]> => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    return (await response.json()) as SimulatedRequest[];
  };
  const newClient = async (credit: bigint) => {
    const id = await harness.createAccount(credit);
    const { key } = await harness.createKey(id);
    return { accountId: id, client: new BetaActionClient(harness.url, key) };
  };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    await harness.seedBetaChannel({ secret: 'sk-sim-beta-relay', models: ['beta-4.5'] });
    ({ accountId, client } = await newClient(CREDIT));
    ({ client: other } = await newClient(CREDIT));
  });
  afterAll(() => harness.close());

  it('submits, then queries until done for beta-4.0, and captures the one image once', async () => {
    const taskId = await client.submit(submitBody('a red kite over the sea [[sim polls=2]]'));
    expect(taskId).toMatch(/^bt_[A-Za-z0-9_-]{22}$/);

    const { last, statuses } = await client.waitForResult('beta_t2i_v40', taskId, { returnUrl: true });
    expect(statuses).toEqual(['generating', 'generating', 'done']);
    expect(last.httpStatus).toBe(200);
    expect(last.envelope).toMatchObject({ code: 10000, status: 10000, message: 'Success' });
    const data = last.envelope.data as { binary_data_base64: string[]; image_urls: string[] };
    expect(data.binary_data_base64).toHaveLength(1);
    expect(imageSize(Buffer.from(data.binary_data_base64[0], 'base64'))).toMatchObject({
      type: 'png',
      width: 1024,
      height: 1024,
    });
    expect(data.image_urls).toHaveLength(1);
    const file = await fetch(data.image_urls[0]);
    expect(imageSize(Buffer.from(await file.arrayBuffer()))).toMatchObject({ width: 1024, height: 1024 });

    // The gateway signed its calls; the client's key never reached the upstream.
    const upstreamCalls = (await simulatedRequests()).filter((request) => request.path === '/');
    expect(upstreamCalls.length).toBeGreaterThanOrEqual(4);
    expect(upstreamCalls.every((request) => request.authenticated)).toBe(true);
    expect(JSON.parse(upstreamCalls[0].body)).toEqual({
      req_key: 'beta_t2i_v40',
      prompt: 'a red kite over the sea [[sim polls=2]]',
      width: 1024,
      height: 1024,
      force_single: true,
    });

    const [task] = (await taskRows(accountId)).filter((row) => row.id === taskId);
    expect(task.status).toBe('completed');
    expect(await logRow(task.hold_request_id)).toEqual({
      route: '/bt',
      end_reason: 'completed',
      image_count: 1,
      cost_micros: ONE_1K_IMAGE.toString(),
    });

    // Asked again: the same images, read from the upstream again, and nothing charged twice. Settled
    // (its cost recorded just after its log row), the answer carries what it cost: the capture below.
    let again: Awaited<ReturnType<typeof client.getResult>> | undefined;
    await waitFor(async () => {
      again = await client.getResult('beta_t2i_v40', taskId);
      return 'cost_micros' in (again.envelope.data as object);
    });
    expect(again?.envelope.data).toEqual({
      status: 'done',
      binary_data_base64: data.binary_data_base64,
      image_urls: null,
      cost_micros: ONE_1K_IMAGE.toString(),
    });
    expect(await harness.ledgerTotals(accountId)).toMatchObject({ capture: ONE_1K_IMAGE });
    expect(await accountRow(accountId)).toEqual({ balance: (CREDIT - ONE_1K_IMAGE).toString(), held: '0' });
  });

  it('reaches a relay channel on its /bt path with the relay key, for beta-4.5', async () => {
    const { accountId: relayAccount, client: relayClient } = await newClient(CREDIT);
    const taskId = await relayClient.submit({ req_key: 'beta_t2i_v45', prompt: 'a kite', resolution: '2k' });
    const { last } = await relayClient.waitForResult('beta_t2i_v45', taskId);
    expect(last.envelope.data?.['status']).toBe('done');
    const relayed = (await simulatedRequests()).filter((request) => request.path === '/bt');
    expect(relayed.length).toBeGreaterThanOrEqual(2);
    expect(relayed.every((request) => request.authenticated)).toBe(true);
    // resolution is the gateway's own field: the upstream received the 2k area.
    expect(JSON.parse(relayed[0].body)).toEqual({
      req_key: 'beta_t2i_v45',
      prompt: 'a kite',
      size: 2048 * 2048,
    });
    expect((await harness.ledgerTotals(relayAccount)).capture).toBe(40_000n);
  });

  it('maps one Idempotency-Key to one task: a repeated submission holds and submits nothing more', async () => {
    const { accountId: retrying, client: retryingClient } = await newClient(CREDIT);
    const headers = { 'idempotency-key': 'kite-order-17' };
    const first = await retryingClient.submit(submitBody('a retried kite'), headers);
    const second = await retryingClient.submit(submitBody('a retried kite'), headers);
    expect(second).toBe(first);
    const submitted = (await simulatedRequests()).filter((request) =>
      request.body.includes('a retried kite'),
    );
    expect(submitted).toHaveLength(1);
    expect((await retryingClient.waitForResult('beta_t2i_v40', first)).last.envelope.data?.['status']).toBe(
      'done',
    );
    expect(await taskRows(retrying)).toHaveLength(1);
    expect(await harness.ledgerTotals(retrying)).toMatchObject({ capture: ONE_1K_IMAGE });
    expect(await accountRow(retrying)).toEqual({ balance: (CREDIT - ONE_1K_IMAGE).toString(), held: '0' });
  });

  it("answers another account's task, and an unknown id, as not found", async () => {
    const taskId = await client.submit(submitBody('a private kite'));
    for (const id of [taskId, 'bt_AAAAAAAAAAAAAAAAAAAAAA', '7392616336519610409']) {
      const answer = await other.getResult('beta_t2i_v40', id);
      expect(answer.httpStatus).toBe(200);
      expect(answer.envelope).toMatchObject({ code: 10000, data: { status: 'not_found' } });
    }
    expect((await client.waitForResult('beta_t2i_v40', taskId)).last.envelope.data?.['status']).toBe('done');
  });

  it.each([
    ['no Action', 'Version=2022-08-31', 'Action'],
    ['no Version', `Action=${SUBMIT_ACTION}`, 'Version'],
    ['an unknown Action', 'Action=CVSync2AsyncListTasks&Version=2022-08-31', 'CVSync2AsyncListTasks'],
    ['another Version', `Action=${SUBMIT_ACTION}&Version=2024-01-01`, '2024-01-01'],
    ['Action twice', `Action=${SUBMIT_ACTION}&Action=${GET_RESULT_ACTION}&Version=2022-08-31`, 'Action'],
  ])('refuses %s with a 400 in the family envelope, charging nothing', async (_case, query, named) => {
    const { accountId: refused, client: refusedClient } = await newClient(CREDIT);
    const answer = await refusedClient.call(SUBMIT_ACTION, submitBody('a kite'), query);
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope.ResponseMetadata?.Error.Code).toBe('InvalidActionOrVersion');
    expect(answer.envelope.ResponseMetadata?.Error.Message).toContain(named);
    expect(answer.envelope.ResponseMetadata?.RequestId).toMatch(/.+/);
    expect(await taskRows(refused)).toEqual([]);
    expect(await accountRow(refused)).toEqual({ balance: CREDIT.toString(), held: '0' });
  });

  it.each([
    ['no req_key', { prompt: 'a kite' }, 400, 50205, 'req_key'],
    ['an unknown req_key', { req_key: 'beta_t2i_v99', prompt: 'a kite' }, 404, 50205, 'beta_t2i_v40'],
    ['no prompt and no image', { req_key: 'beta_t2i_v40' }, 400, 50205, 'prompt'],
    ['a scale out of range', { req_key: 'beta_t2i_v40', prompt: 'a kite', scale: 7 }, 400, 50205, 'scale'],
    [
      'a reference that is no URL',
      { req_key: 'beta_t2i_v40', image_urls: ['kite.png'] },
      400,
      50205,
      'image_urls',
    ],
    [
      'width without height',
      { req_key: 'beta_t2i_v40', prompt: 'a kite', width: 1024 },
      400,
      50205,
      'height',
    ],
  ])(
    'refuses %s in the business envelope, charging nothing',
    async (_case, body, httpStatus, code, named) => {
      const { accountId: refused, client: refusedClient } = await newClient(CREDIT);
      const answer = await refusedClient.call(SUBMIT_ACTION, body);
      expect(answer.httpStatus).toBe(httpStatus);
      expect(answer.envelope).toMatchObject({ code, status: code, data: null });
      expect(answer.envelope.message).toContain(named);
      expect(await taskRows(refused)).toEqual([]);
      expect(await accountRow(refused)).toEqual({ balance: CREDIT.toString(), held: '0' });
      expect(await refusalLogRow(answer.envelope.request_id)).toEqual({
        route: '/bt',
        http_status: httpStatus,
        end_reason: 'refused',
        cost_micros: '0',
      });
    },
  );

  it('refuses a call without the gateway key, and one carrying a channel key, in the family envelope', async () => {
    for (const key of ['', 'sim-beta-ak|sim-beta-sk']) {
      const answer = await new BetaActionClient(harness.url, key).call(SUBMIT_ACTION, submitBody('a kite'));
      expect(answer.httpStatus).toBe(401);
      expect(answer.envelope.ResponseMetadata?.Error.Code).toBe('InvalidAuthorization');
    }
  });

  it('refuses a submission the balance cannot cover, charging nothing', async () => {
    const { accountId: poor, client: poorClient } = await newClient(ONE_1K_IMAGE - 1n);
    const answer = await poorClient.call(SUBMIT_ACTION, submitBody('a kite'));
    expect(answer.httpStatus).toBe(402);
    expect(answer.envelope).toMatchObject({ code: 50400, data: null });
    expect(await refusalLogRow(answer.envelope.request_id)).toMatchObject({
      end_reason: 'insufficient_balance',
    });
    expect(await taskRows(poor)).toEqual([]);
    expect(await accountRow(poor)).toEqual({ balance: (ONE_1K_IMAGE - 1n).toString(), held: '0' });
  });

  it("answers a blocked prompt with the upstream's code, and charges nothing", async () => {
    const { accountId: blocked, client: blockedClient } = await newClient(CREDIT);
    const answer = await blockedClient.call(SUBMIT_ACTION, submitBody('a kite [[sim block=prompt]]'));
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 50412, data: null });
    expect(answer.envelope.message).toContain('Text Risk Not Pass');
    const [task] = await taskRows(blocked);
    expect(task).toMatchObject({ status: 'failed', failure_reason: 'content_policy: Text Risk Not Pass' });
    expect(await logRow(task.hold_request_id)).toMatchObject({
      cost_micros: '0',
      image_count: 0,
      end_reason: 'upstream_error',
    });
    // On the channel that refused it, named on the task and on its log row.
    const [named] = await harness.query<{ task_channel: string | null; log_channel: string | null }>(
      `select t.channel_id as task_channel, l.channel_id as log_channel
         from tasks t join request_logs l on l.request_id = t.hold_request_id where t.id = $1`,
      [task.id],
    );
    expect(named.task_channel).not.toBeNull();
    expect(named.log_channel).toBe(named.task_channel);
    expect(await harness.ledgerTotals(blocked)).toMatchObject({ capture: 0n });
    expect(await accountRow(blocked)).toEqual({ balance: CREDIT.toString(), held: '0' });
  });

  it('answers a blocked output when it is queried, and charges nothing', async () => {
    const { accountId: blocked, client: blockedClient } = await newClient(CREDIT);
    const taskId = await blockedClient.submit(submitBody('a kite [[sim block=output]]'));
    const answer = await blockedClient.getResult('beta_t2i_v40', taskId);
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 50511, data: null });
    // Asked again, the row answers alike.
    expect((await blockedClient.getResult('beta_t2i_v40', taskId)).envelope).toMatchObject({ code: 50511 });
    expect((await taskRows(blocked))[0].status).toBe('failed');
    expect(await harness.ledgerTotals(blocked)).toMatchObject({ capture: 0n });
    expect(await accountRow(blocked)).toEqual({ balance: CREDIT.toString(), held: '0' });
  });

  it('refuses a query whose req_key is not the submission one', async () => {
    const taskId = await client.submit(submitBody('a kite'));
    const answer = await client.getResult('beta_t2i_v45', taskId);
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 50205 });
    expect(answer.envelope.message).toContain('req_key');
  });
});
