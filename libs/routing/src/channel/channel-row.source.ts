import type { Pool } from 'pg';

/** The columns of a `channels` row that routing needs; the secret is still sealed. */
export interface ChannelRow {
  id: string;
  type: string;
  name: string;
  baseUrl: string;
  secretCiphertext: string;
  secretKeyVersion: number;
  /** The `models` JSON column as stored: [{ "model", "upstreamModel"? }]. */
  models: unknown;
  /** The `settings` JSON column as stored, checked against the type's schema on load. */
  settings: unknown;
  priority: number;
  weight: number;
}

/** Where the channel catalog loads the enabled channels from. */
export interface ChannelRowSource {
  enabledChannels(): Promise<ChannelRow[]>;
}

const enabledChannelsStatement = {
  name: 'routing_enabled_channels',
  text: `
SELECT id, type, name, base_url AS "baseUrl", secret_ciphertext AS "secretCiphertext",
       secret_key_version AS "secretKeyVersion", models, settings, priority, weight
  FROM channels
 WHERE status = 'enabled'
 ORDER BY id`,
};

/** The enabled channels as one prepared statement on the shared pg pool (see pgKeyRowSource). */
export function pgChannelRowSource(pool: Pool): ChannelRowSource {
  return {
    async enabledChannels() {
      const { rows } = await pool.query<ChannelRow>(enabledChannelsStatement);
      return rows;
    },
  };
}
