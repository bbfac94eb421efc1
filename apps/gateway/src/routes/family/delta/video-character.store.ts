import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../../platform/infrastructure/tokens';

/** A character as its owner reads it back (`GET /v1/videos/characters/{id}`). */
export interface VideoCharacterRow {
  id: string;
  name: string;
  /** Unix seconds. */
  created_at: number;
}

/**
 * The characters each account created (table video_characters): the upstream's id, the channel that
 * holds it and its name. The upstream answers for the channel's key, whoever asked, so ownership is
 * the gateway's to keep: another account's character id reads as not found.
 */
@Injectable()
export class VideoCharacterStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** `createdAt` in Unix seconds, as the upstream answered it (now when absent): the GET answers the same. */
  async record(character: {
    id: string;
    accountId: string;
    channelId: string;
    name: string;
    createdAt?: number;
  }): Promise<void> {
    await this.pool.query(
      `INSERT INTO video_characters (id, account_id, channel_id, name, created_at)
       VALUES ($1, $2, $3, $4, coalesce(to_timestamp($5), now()) AT TIME ZONE 'UTC')
       ON CONFLICT (account_id, id) DO UPDATE SET channel_id = EXCLUDED.channel_id, name = EXCLUDED.name`,
      [character.id, character.accountId, character.channelId, character.name, character.createdAt ?? null],
    );
  }

  async findOwned(accountId: string, id: string): Promise<VideoCharacterRow | undefined> {
    const { rows } = await this.pool.query<VideoCharacterRow>(
      `SELECT id, name, floor(extract(epoch FROM created_at AT TIME ZONE 'UTC'))::int AS created_at
         FROM video_characters WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    );
    return rows[0];
  }
}
