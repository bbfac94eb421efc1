import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { waitFor } from '@gateway/testing';
import { startTestDeliveryWorker, WebhookReceiver } from '@gateway/testing-workers/webhooks';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryWorker } from '@gateway/webhooks';
import type { Pool } from 'pg';
import { BetaActionClient } from './beta-action.client';
import { GatewayHarness } from './gateway-harness';
import { lambdaClient, seedMusicDemo, startMusicWorker, submitted } from './lambda-demo';
import { seedThetaChannel, startAssetWorker, ThetaClient } from './theta-demo';
import { seedVideoDemo, videoClient } from './video-demo';

const PUBLIC_BASE_URL = 'https://gateway.example.test';

/**
 * Tasks made through the gateway's own routes and ended by the task workers reach a registered
 * endpoint as one signed event each, whose `data` is what the task's GET route answers.
 */
describe('webhook events of tasks run by the workers', () => {
  let harness: GatewayHarness;
  let receiver: WebhookReceiver;
  let pool: Pool;
  let prisma: PrismaClient;
  let taskWorkers: INestApplicationContext[];
  let delivery: WebhookDeliveryWorker;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      PUBLIC_BASE_URL,
      // The receiver listens on loopback: the operator's allow-list lets it through.
      SSRF_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0s,200ms,200ms',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    const { config } = harness;
    pool = createPgPool(config.databaseUrl, 4);
    prisma = createPrismaClient(pool);
    taskWorkers = [
      await startMusicWorker(harness),
      await startAssetWorker(harness),
      await NestFactory.createApplicationContext(
        ImageWorkerUnderTest.forEnvironment({
          DATABASE_URL: config.databaseUrl,
          REDIS_URL: config.redisUrl,
          REDIS_PREFIX: config.redisPrefix,
          ADMIN_TOKEN: config.adminToken,
          MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
          LOG_LEVEL: 'silent',
        }),
        { logger: false },
      ),
    ];
    delivery = startTestDeliveryWorker({ pool, prisma, config });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await delivery?.stop();
    await Promise.all((taskWorkers ?? []).map((worker) => worker.close()));
    await prisma?.$disconnect();
    await pool?.end();
    await harness?.close();
  });

  it('delivers video.completed, music.completed, image.completed and asset.active once each, verified, with the task as its GET renders it', async () => {
    const endpoint = await harness.adminOk<{ id: string; secret: string }>('POST', '/admin/webhooks', {
      url: receiver.url,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    receiver.secrets = [endpoint.secret];

    const videoDemo = await seedVideoDemo(harness);
    const video = await videoClient(harness.url, videoDemo.key).videos.create({
      model: 'delta-2',
      prompt: 'a paper boat on a river [[sim polls=2]]',
    });
    const musicDemo = await seedMusicDemo(harness);
    const music = lambdaClient(harness, musicDemo.key);
    const musicId = await submitted(music, 'MUSIC', {
      prompt: 'rain on a tin roof [[sim polls=2]]',
      title: 'Tin Roof',
      tags: 'ambient',
      mv: 'lambda-v4',
    });
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    const imageId = await new BetaActionClient(harness.url, videoDemo.key).submit({
      req_key: 'beta_t2i_v40',
      prompt: 'a kite over a beach [[sim polls=2]]',
      size: 1024 * 1024,
      force_single: true,
    });

    await seedThetaChannel(harness);
    const theta = new ThetaClient(harness, harness.url, videoDemo.key);
    const groupId = await theta.createGroup('kites');
    const assetId = await theta.createAsset(
      groupId,
      `${harness.simulatorUrl}/files/kite.png`,
      'kite [[sim polls=2]]',
    );

    await waitFor(async () => receiver.received.length >= 4, 45_000);
    await sleep(500);
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.every((message) => message.verifiedByOpenAi)).toBe(true);
    expect(receiver.received.every((message) => message.verifiedByStandardWebhooks)).toBe(true);
    const eventOf = (type: string) => receiver.received.find((message) => message.event.type === type)?.event;

    const videoEvent = eventOf('video.completed');
    const videoAnswer = await harness.request('GET', `/v1/videos/${video.id}`, {
      headers: { authorization: `Bearer ${videoDemo.key}` },
    });
    expect(videoEvent?.data).toEqual(videoAnswer.body);
    expect(videoEvent?.data).toMatchObject({ id: video.id, status: 'completed' });

    const musicEvent = eventOf('music.completed');
    const musicAnswer = (await music.fetchOne(musicId)).body.data;
    // The clips are read from the upstream at each fetch; the event leaves them to that route.
    expect(musicEvent?.data).toEqual({ id: musicId, ...musicAnswer, data: [] });
    expect(musicAnswer.status).toBe('SUCCESS');

    expect(eventOf('image.completed')?.data).toMatchObject({
      id: imageId,
      object: 'image.task',
      status: 'completed',
      model: 'beta-4.0',
    });
    expect(eventOf('asset.active')?.data).toEqual({ id: assetId, ...(await theta.getAsset(assetId)) });

    const deliveries = await prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries.map((row) => row.status)).toEqual(Array(4).fill('delivered'));
  });
});
