import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { enqueueAssetStatus } from '@gateway/tasks';
import { waitFor } from '@gateway/testing';
import { WorkerAssetsModule } from '../src/worker-assets.module';
import { EtaAssetLibrary } from './eta-asset-library.fixture';

/**
 * worker-assets against Postgres, Redis and the eta control-plane simulator: an asset uploaded on the
 * upstream and recorded as a Processing row ends Active or Failed as the upstream's processing does,
 * and the sweep finds an asset whose job was never enqueued.
 */
describe('worker-assets (Postgres, Redis, eta control plane)', () => {
  let library: EtaAssetLibrary;
  let app: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    library = await EtaAssetLibrary.start();
    queue = library.queue();
    app = await NestFactory.createApplicationContext(
      WorkerAssetsModule.forRoot({ env: library.env, settings: { sweepIntervalMs: 200, idleAfterMs: 1 } }),
      { logger: false },
    );
  });

  afterAll(async () => {
    await app?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    await library?.close();
  });

  const settledRow = async (id: string) => {
    await waitFor(async () => (await library.rowOf(id)).status !== 'Processing', 20_000);
    return library.rowOf(id);
  };

  it('looks until the upstream has processed the asset: Active', async () => {
    await library.uploaded('asset_active', 'kite [[sim polls=3]]');
    await enqueueAssetStatus(queue, 'asset_active');
    expect(await settledRow('asset_active')).toMatchObject({ status: 'Active', failureReason: null });
  });

  it("records the upstream's failure of an asset: Failed with its code and message", async () => {
    await library.uploaded('asset_failed', 'x [[sim error=bad_request;error_after=2;code=Image.TooSmall]]');
    await enqueueAssetStatus(queue, 'asset_failed');
    const row = await settledRow('asset_failed');
    expect(row.status).toBe('Failed');
    expect(row.failureReason).toMatch(/^Image\.TooSmall: /);
  });

  it('finds an asset whose job was never enqueued with the sweep of assets left processing', async () => {
    await library.uploaded('asset_stranded', 'kite [[sim polls=1]]');
    expect(await settledRow('asset_stranded')).toMatchObject({ status: 'Active' });
  });

  it('fails an asset the upstream does not know', async () => {
    await library.unknownToUpstream('asset_unknown');
    const row = await settledRow('asset_unknown');
    expect(row.status).toBe('Failed');
    expect(row.failureReason).toMatch(/^NotFound\.Asset: /);
  });
});
