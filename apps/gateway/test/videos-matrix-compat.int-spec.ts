import { waitFor } from '@gateway/testing';
import type { GatewayHarness } from './gateway-harness';
import { createdFields, holdOf, simulatorCreates } from './video-demo';
import {
  MatrixClient,
  matrixPrice,
  startMatrixStack,
  type MatrixStack,
  type MatrixDemo,
} from './video-matrix.demo';

const FIRST = 'https://img.example.test/first.png';
/** A relay's own status words (upstreams §2.4, relay vocabulary) and a result URL in `video_url`. */
const RELAY = 'words=pending+generating+succeeded++; placement=video_url; polls=2';

/**
 * The further prefixes `nu-*` and `xi-*` (upstreams §10) on a compat channel, end to end through
 * `POST /v1/videos` (JSON) and `POST /v1/video/create` with `GET /v1/video/query`, against a relay that
 * speaks its own status words and puts the result in a URL: the client sees the interface's words, the
 * content downloads through the gateway, the money settles once.
 */
describe('nu and xi through the generic video routes', () => {
  let harness: GatewayHarness;
  let stack: MatrixStack;
  let demo: MatrixDemo;
  let client: MatrixClient;

  beforeAll(async () => {
    stack = await startMatrixStack();
    ({ harness, demo, client } = stack);
  });
  afterAll(() => stack?.close());

  async function receivedCreate(marker: string): Promise<Record<string, unknown>> {
    await waitFor(async () => (await simulatorCreates(harness, marker)).length === 1, 30_000);
    return createdFields((await simulatorCreates(harness, marker))[0]);
  }

  it('/v1/videos nu-1: seconds and size as sent; relay words read as the interface words; the URL result downloads', async () => {
    const prompt = `A tram at night [[sim ${RELAY}]]`;
    const created = await client.create({ model: 'nu-1', prompt, seconds: '8', size: '1280x720' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'queued', seconds: '8' });
    expect((await holdOf(harness, created.body.id))?.amount).toBe(matrixPrice(8, '720p'));
    expect(await receivedCreate('A tram at night')).toMatchObject({
      model: 'nu-1',
      seconds: '8',
      size: '1280x720',
    });
    await client.expectCompleted(created.body.id, matrixPrice(8, '720p'));
  });

  it('/v1/video/create and /v1/video/query xi-1: one image, the interface default tier without a size', async () => {
    const prompt = `A glacier calving [[sim ${RELAY}]]`;
    const created = await client.createUnified({ model: 'xi-1', prompt, images: [FIRST], duration: 6 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ task_id: created.body.id, status: 'queued', seconds: '6' });
    expect(await receivedCreate('A glacier calving')).toMatchObject({ model: 'xi-1', seconds: '6' });
    await client.expectCompleted(created.body.id, matrixPrice(6, 'default'), 'unified');
  });

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
