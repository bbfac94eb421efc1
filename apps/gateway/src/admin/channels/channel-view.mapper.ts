import type { ChannelModelDto, ChannelStatus, ChannelView } from '@gateway/contracts';
import { toMaskedSecret } from '@gateway/contracts';
import type { Channel, Prisma } from '@gateway/db';
import { parseChannelModels } from '@gateway/routing';

/** A channel row as the admin API shows it: the secret only masked, never its ciphertext. */
export function toChannelView(row: Channel): ChannelView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    baseUrl: row.baseUrl,
    secretMasked: toMaskedSecret(row.secretTail),
    models: toChannelModelViews(row.models),
    settings: isSettingsObject(row.settings) ? row.settings : {},
    priority: row.priority,
    weight: row.weight,
    status: row.status as ChannelStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The `settings` column holds an object whenever the admin API wrote it; anything else shows as none. */
function isSettingsObject(column: unknown): column is Record<string, unknown> {
  return typeof column === 'object' && column !== null && !Array.isArray(column);
}

/** The `models` column as written by an operator: `upstreamModel` only where it differs. */
function toChannelModelViews(column: unknown): ChannelModelDto[] {
  return parseChannelModels(column).map(({ model, upstreamModel }) =>
    upstreamModel === model ? { model } : { model, upstreamModel },
  );
}

/** The `models` column from validated DTOs: plain JSON objects, without absent fields. */
export function toChannelModelsColumn(
  models: readonly ChannelModelDto[],
): { model: string; upstreamModel?: string }[] {
  return models.map(({ model, upstreamModel }) =>
    upstreamModel === undefined ? { model } : { model, upstreamModel },
  );
}

/** The `settings` column from a validated body: it was parsed from JSON, so it holds JSON values only. */
export function toChannelSettingsColumn(settings: Record<string, unknown>): Prisma.InputJsonObject {
  return settings as Prisma.InputJsonObject;
}
