import { waitFor } from '@gateway/testing';
import { holdsOf } from './alpha-demo';
import type { GatewayHarness } from './gateway-harness';
import { expectSettledOnce, simulatorRouteCount } from './video-fault.checks';
import { holdOf, newVideoAccount } from './video-demo';
import {
  MatrixClient,
  matrixPrice,
  startMatrixStack,
  type MatrixStack,
  type MatrixDemo,
} from './video-matrix.demo';

/**
 * Every task of this file has a short deadline, so that an unknown status word ends within the test:
 * three tests wait it out. The other tasks end within a second (the worker polls every 20–100 ms).
 */
const DEADLINE_MS = 5_000;
const FRAME_URL = 'https://img.example.test/first.png';

/** One model per family, a valid body for it (the directives go in the prompt), and its wire. */
const FAMILIES = {
  mu: {
    body: (prompt: string) => ({ model: 'mu-2.3', prompt, image: FRAME_URL, seconds: '6' }),
    price: matrixPrice(6, '768p'),
    queryRoute: 'mu:query',
    unknownWord: 'Paused',
  },
  omega: {
    body: (prompt: string) => ({ model: 'omega2.6-t2v:1280*720', prompt, seconds: '5' }),
    price: matrixPrice(5, '720p'),
    queryRoute: 'omega:query',
    unknownWord: 'paused',
  },
  theta: {
    body: (prompt: string) => ({ model: 'eta-theta-1-0-pro_720p', prompt, seconds: '5' }),
    price: matrixPrice(5, '720p'),
    queryRoute: 'eta:videoTasks:get',
    unknownWord: 'paused',
  },
} as const;
type Family = keyof typeof FAMILIES;
const FAMILY_NAMES = Object.keys(FAMILIES) as Family[];

/**
 * Bad input and upstream faults of issue 22 for mu, omega and eta theta 1.x through `POST /v1/videos`:
 * values outside each family's sets refused naming the allowed ones with nothing held; a task the
 * upstream fails after accepting it, released in full; a status word outside the wire's table, read as
 * pending until the deadline, then failed and released; a result URL at a private address, refused at
 * download. Every task settles once and the books balance.
 */
describe('mu, omega and eta theta 1.x: bad input and faults', () => {
  let harness: GatewayHarness;
  let stack: MatrixStack;
  let demo: MatrixDemo;
  let client: MatrixClient;
  let marker = 0;

  beforeAll(async () => {
    stack = await startMatrixStack({ VIDEO_TASK_DEADLINE_MS: String(DEADLINE_MS) });
    ({ harness, demo, client } = stack);
  });
  afterAll(() => stack?.close());

  const create = async (family: Family, directives: string) => {
    const created = await client.create(
      FAMILIES[family].body(`A stormy sea #${++marker} [[sim ${directives}]]`),
    );
    expect(created.status).toBe(200);
    expect((await holdOf(harness, created.body.id))?.amount).toBe(FAMILIES[family].price);
    return created.body.id;
  };

  describe('values outside the family sets: 400 naming the allowed values, nothing held', () => {
    let stranger: { key: string; accountId: string };

    beforeAll(async () => {
      stranger = await newVideoAccount(harness);
    });

    it.each([
      ['mu', { model: 'mu-2.3', image: FRAME_URL, seconds: '5' }, 'seconds', 'seconds must be 6 or 10'],
      [
        'mu',
        { model: 'mu-2.3', image: FRAME_URL, metadata: { output_config: { resolution: '720P' } } },
        'metadata.output_config.resolution',
        'must be 768P or 1080P',
      ],
      ['mu', { model: 'mu-2.3-fast' }, 'image', 'send the first frame in image'],
      ['omega', { model: 'omega2.6-t2v:1280*720', seconds: '7' }, 'seconds', 'seconds must be 5, 10, 15'],
      [
        'omega',
        { model: 'omega2.6-t2v:1280*720', size: '1920x1080' },
        'size',
        'size must be 1280*720 or 720P',
      ],
      ['omega', { model: 'omega2.6-i2v:1920*1080' }, 'image', 'send one first frame in image'],
      [
        'theta',
        { model: 'eta-theta-1-0-pro_720p', seconds: '12' },
        'seconds',
        'seconds must be a whole number from 4 to 11',
      ],
      [
        'theta',
        { model: 'eta-theta-1-0-pro_720p', size: '16:9' },
        'size',
        'size must be one of keep_ratio, adaptive',
      ],
      [
        'theta',
        { model: 'eta-theta-1-0-pro_720p', metadata: { output_config: { resolution: '1080p' } } },
        'metadata.output_config.resolution',
        'use eta-theta-1-0-pro_1080p for another',
      ],
    ])('%s %j → names %s', async (_family, fields, param, message) => {
      const answer = await client.create({ prompt: 'Out of the set', ...fields }, stranger.key);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: 'invalid_request_error',
        param,
        message: expect.stringContaining(message),
      });
    });

    it('held nothing for any of them', async () => {
      expect(await holdsOf(harness, stranger.accountId)).toBe(0);
    });
  });

  it.each(FAMILY_NAMES)(
    '%s: a task the upstream fails after accepting it ends failed, released in full',
    async (family) => {
      const id = await create(family, 'error=overload;error_after=1');
      const { video, statuses } = await client.untilEnded(id);
      expect(video).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
      expect(statuses.every((status) => ['queued', 'processing', 'failed'].includes(status))).toBe(true);
      await expectSettledOnce(harness, id, { capture: 0n, endReason: 'upstream_error' });
    },
  );

  it.each(FAMILY_NAMES)(
    '%s: a status word outside the wire table is pending until the deadline, then failed and released',
    async (family) => {
      const { queryRoute, unknownWord } = FAMILIES[family];
      const asked = await simulatorRouteCount(harness, queryRoute);
      const id = await create(family, `finish=${unknownWord}`);
      // Every query of this task answers the unknown word; the worker keeps asking.
      await waitFor(async () => (await simulatorRouteCount(harness, queryRoute)) >= asked + 3, 30_000);
      expect(['queued', 'processing']).toContain((await client.retrieve(id)).body.status);
      expect((await client.untilEnded(id)).video).toMatchObject({
        status: 'failed',
        error: { code: 'deadline_exceeded', message: expect.stringContaining('deadline') },
      });
      expect((await simulatorRouteCount(harness, queryRoute)) - asked).toBeGreaterThan(3);
      await expectSettledOnce(harness, id, { capture: 0n, endReason: 'task_failed' });
    },
    DEADLINE_MS + 30_000,
  );

  it.each(FAMILY_NAMES)(
    '%s: a result URL at a private address is refused at download with a 502',
    async (family) => {
      const id = await create(family, 'result_host=10.0.0.7');
      expect((await client.untilEnded(id)).video.status).toBe('completed');
      const download = await client.content(id);
      expect(download.status).toBe(502);
      expect(((await download.json()) as { error: unknown }).error).toMatchObject({
        type: 'server_error',
        code: 'bad_gateway',
        message: expect.stringMatching(/non-public address/),
      });
    },
  );

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
