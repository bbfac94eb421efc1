import { HoldService, SettlementService } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { TaskSettlementService } from '../task/task-settlement.service';
import { TaskStore } from '../task/task-store';

/** A channel row a spec's tasks name: its wire is never called, so its secret is a placeholder. */
export interface TestChannel {
  id: string;
  type: string;
  models: Array<{ model: string; upstreamModel?: string }>;
}

/**
 * A migrated throw-away database with the task store and the services a task's hold is taken and
 * settled through, for integration specs.
 */
export interface TaskDatabase {
  /** The database's name on the server, for outages (postgres-outage in @gateway/testing). */
  name: string;
  pool: Pool;
  prisma: PrismaClient;
  store: TaskStore;
  holds: HoldService;
  settlement: TaskSettlementService;
  /** Writes the channel row; its base URL refuses connections. */
  createChannel(channel: TestChannel): Promise<void>;
  close(): Promise<void>;
}

export async function openTaskDatabase(maxConnections = 4): Promise<TaskDatabase> {
  const database = await createTestDatabase();
  const pool = createPgPool(database.url, maxConnections);
  const prisma = createPrismaClient(pool);
  return {
    name: database.name,
    pool,
    prisma,
    store: new TaskStore(prisma, pool),
    holds: new HoldService(pool),
    settlement: new TaskSettlementService(new SettlementService(pool), prisma),
    createChannel: async ({ id, type, models }) => {
      await prisma.channel.create({
        data: {
          id,
          type,
          name: `${id} channel`,
          baseUrl: 'http://127.0.0.1:9',
          secretCiphertext: 'unused',
          secretKeyVersion: 1,
          secretTail: 'abcd',
          models,
        },
      });
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}
