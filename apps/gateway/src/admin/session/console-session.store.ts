import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { GatewayConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { boundedCommand } from '@gateway/redis';
import { CONFIG, REDIS } from '../../platform/infrastructure/tokens';

/** A signed-in console session as the server keeps it. */
export interface ConsoleSession {
  expiresAt: Date;
}

/** 32 random bytes in base64url: what a session id always looks like, so junk costs no Redis call. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/** A console request waits this long for Redis before it is answered 503. */
const REDIS_TIMEOUT_MS = 1_000;

/**
 * Console sessions in Redis, so that every gateway instance sees a sign-in and a sign-out at once, and
 * each expires by itself (a key with a TTL). The key is the SHA-256 of the id: what Redis holds (or a
 * dump of it) cannot be replayed as a cookie.
 *
 * When Redis is down or slow, every call fails with 503: a session can be neither made nor checked,
 * so the console is shut (fail closed) while the bearer token, which needs no Redis, keeps working.
 */
@Injectable()
export class ConsoleSessionStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** A new session lasting CONSOLE_SESSION_TTL: its id (for the cookie only) and its end. */
  async create(): Promise<{ id: string; session: ConsoleSession }> {
    const id = randomBytes(32).toString('base64url');
    const ttlMs = this.config.console.sessionTtlSeconds * 1000;
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.call((redis) => redis.set(this.keyOf(id), String(expiresAt.getTime()), 'PX', ttlMs, 'NX'));
    return { id, session: { expiresAt } };
  }

  /** The live session of `id`; undefined for an unknown, expired, deleted or malformed one. */
  async find(id: string | undefined): Promise<ConsoleSession | undefined> {
    if (id === undefined || !SESSION_ID.test(id)) return undefined;
    const stored = await this.call((redis) => redis.get(this.keyOf(id)));
    const expiresAtMs = stored === null ? Number.NaN : Number(stored);
    // Redis ends the key at its TTL; the time stored beside it guards against a key left without one.
    if (!Number.isFinite(expiresAtMs) || expiresAtMs <= Date.now()) return undefined;
    return { expiresAt: new Date(expiresAtMs) };
  }

  /** Ends the session of `id` on every instance; nothing to do for one that does not exist. */
  async delete(id: string | undefined): Promise<void> {
    if (id === undefined || !SESSION_ID.test(id)) return;
    await this.call((redis) => redis.del(this.keyOf(id)));
  }

  private keyOf(id: string): string {
    return `${this.config.redisPrefix}:console:session:${createHash('sha256').update(id).digest('hex')}`;
  }

  private async call<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      return await boundedCommand(this.redis, REDIS_TIMEOUT_MS, () => command(this.redis));
    } catch (error) {
      throw sessionsUnavailable(error);
    }
  }
}

function sessionsUnavailable(cause?: unknown): GatewayError {
  return new GatewayError(
    'service_unavailable',
    'Console sessions cannot be checked right now (Redis is unavailable); retry shortly, or use the admin token as a bearer token.',
    { cause },
  );
}
