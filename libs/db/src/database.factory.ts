import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/client';

/**
 * One pg pool per process serves both Prisma (through the driver adapter) and the few hand-written
 * statements of the hot path (the hold), so that a request never waits for a second pool.
 */
export function createPgPool(databaseUrl: string, maxConnections = 10): Pool {
  return new Pool({ connectionString: databaseUrl, max: maxConnections, idleTimeoutMillis: 30_000 });
}

export function createPrismaClient(pool: Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
