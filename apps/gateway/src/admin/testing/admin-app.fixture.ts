import { randomBytes } from 'node:crypto';
import { APP_FILTER } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { GatewayExceptionFilter } from '../../platform/http/gateway-exception.filter';
import { InfrastructureModule } from '../../platform/infrastructure/infrastructure.module';
import { PG_POOL, PRISMA } from '../../platform/infrastructure/tokens';
import { AdminModule } from '../admin.module';

export interface AdminReply {
  status: number;
  body: Record<string, unknown> & { error?: { param?: string; message?: string; code?: string } };
}

/** The admin API on a throw-away database, listening on loopback, with the handles a spec checks. */
export interface AdminApp {
  prisma: PrismaClient;
  pool: Pool;
  call(method: string, path: string, body?: unknown): Promise<AdminReply>;
  /** A provider of the running app (the circuit breaker, the config …). */
  get<T>(token: string | symbol | (abstract new (...args: never[]) => T)): T;
  close(): Promise<void>;
}

export async function startAdminApp(): Promise<AdminApp> {
  const database: TestDatabase = await createTestDatabase();
  const adminToken = randomBytes(24).toString('hex');
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `admin_test_${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN: adminToken,
    MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const moduleRef = await Test.createTestingModule({
    imports: [InfrastructureModule.forConfig(config), AdminModule],
    providers: [{ provide: APP_FILTER, useClass: GatewayExceptionFilter }],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const baseUrl = await app.getUrl();
  return {
    prisma: app.get<PrismaClient>(PRISMA),
    pool: app.get<Pool>(PG_POOL),
    get: (token) => app.get(token),
    call: async (method, path, body) => {
      const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
