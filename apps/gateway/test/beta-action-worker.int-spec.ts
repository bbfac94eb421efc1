import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { waitFor } from '@gateway/testing';
import { BetaActionClient } from './beta-action.client';
import { GatewayHarness } from './gateway-harness';

/** BETA_TEST_PRICES: one 1k image. */
const ONE_1K_IMAGE = 20_000n;
const CREDIT = 1_000_000n;

/** `/bt` tasks and worker-image together: whoever sees the end of a task first settles it, once. */
describe('/bt tasks with worker-image running', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;

  const taskRow = async (taskId: string) =>
    (
      await harness.query<{ status: string; hold_request_id: string }>(
        'select status, hold_request_id from tasks where id = $1',
        [taskId],
      )
    )[0];
  const holdStatus = async (requestId: string) =>
    (
      await harness.query<{ status: string }>('select status from holds where request_id = $1', [requestId])
    )[0]?.status;
  const captures = (requestId: string) =>
    harness.query<{ amount: string }>(
      "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
      [requestId],
    );
  const newClient = async () => {
    const accountId = await harness.createAccount(CREDIT);
    const { key } = await harness.createKey(accountId);
    return { accountId, client: new BetaActionClient(harness.url, key) };
  };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    const { config } = harness;
    worker = await NestFactory.createApplicationContext(
      ImageWorkerUnderTest.forEnvironment({
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        REDIS_PREFIX: config.redisPrefix,
        ADMIN_TOKEN: config.adminToken,
        MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
        LOG_LEVEL: 'silent',
      }),
      { logger: false },
    );
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('settles a task the client never queries, and the client still reads its images later', async () => {
    const { accountId, client } = await newClient();
    const taskId = await client.submit({
      req_key: 'beta_t2i_v40',
      prompt: 'a kite nobody asks about [[sim polls=3]]',
      size: 1024 * 1024,
      force_single: true,
    });
    const { hold_request_id: holdId } = await taskRow(taskId);

    await waitFor(async () => (await holdStatus(holdId)) === 'settled');
    expect((await taskRow(taskId)).status).toBe('completed');
    expect(await captures(holdId)).toEqual([{ amount: ONE_1K_IMAGE.toString() }]);
    expect(await harness.ledgerTotals(accountId)).toMatchObject({ capture: ONE_1K_IMAGE });

    const answer = await client.getResult('beta_t2i_v40', taskId, { returnUrl: true });
    expect(answer.envelope).toMatchObject({ code: 10000, data: { status: 'done' } });
    expect((answer.envelope.data?.['binary_data_base64'] as string[]).length).toBe(1);
    expect(await captures(holdId)).toHaveLength(1);
  });

  it('settles once when the client and the worker race to the end of the same tasks', async () => {
    const { accountId, client } = await newClient();
    const taskIds = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        client.submit({
          req_key: 'beta_t2i_v40',
          prompt: `kite ${index} [[sim polls=2]]`,
          size: 1024 * 1024,
          force_single: true,
        }),
      ),
    );
    // Every task is queried by two clients at once while the worker polls it too.
    const results = await Promise.all(
      taskIds.flatMap((taskId) => [
        client.waitForResult('beta_t2i_v40', taskId),
        client.waitForResult('beta_t2i_v40', taskId),
      ]),
    );
    expect(results.map(({ last }) => last.envelope.data?.['status'])).toEqual(Array(12).fill('done'));

    const holdIds = await Promise.all(taskIds.map(async (taskId) => (await taskRow(taskId)).hold_request_id));
    for (const holdId of holdIds) {
      await waitFor(async () => (await holdStatus(holdId)) === 'settled');
      expect(await captures(holdId)).toEqual([{ amount: ONE_1K_IMAGE.toString() }]);
    }
    expect(await harness.ledgerTotals(accountId)).toMatchObject({ capture: 6n * ONE_1K_IMAGE });
    const [account] = await harness.query<{ held: string }>('select held from accounts where id = $1', [
      accountId,
    ]);
    expect(account.held).toBe('0');
  });
});
