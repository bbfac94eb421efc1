export * from './pg-pool';
export * from './prisma-client.factory';
export { PrismaClient, Prisma } from './generated/client';
export type {
  Account,
  ApiKey,
  Channel,
  Price,
  LedgerEntry,
  Hold,
  RequestLog,
  Task,
  AssetGroup,
  Asset,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
} from './generated/client';
export * from './statement-batcher';
