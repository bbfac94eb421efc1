import type { ChannelModelDto, ChannelStatus, ChannelView } from '@gateway/contracts';
import { toMaskedSecret } from '@gateway/contracts';
import type { Channel } from '@gateway/db';
import { isJsonObject, secretSettingsOf, type JsonObject } from '@gateway/providers-core';
import { isSealedSetting, parseChannelModels } from '@gateway/routing';
import { settingsSchemaOf } from './channel-type-fit.check';

/** A channel row as the admin API shows it: the secret and secret settings only masked, never sealed. */
export function toChannelView(row: Channel): ChannelView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    baseUrl: row.baseUrl,
    secretMasked: toMaskedSecret(row.secretTail),
    models: toChannelModelViews(row.models),
    settings: toSettingsView(row),
    priority: row.priority,
    weight: row.weight,
    pollsPerSecond: row.pollsPerSecond,
    status: row.status as ChannelStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The `settings` column with the type's secret settings masked like the secret (a value not sealed
 * shows nothing of itself). The column holds an object whenever the admin API wrote it; anything else
 * shows as none.
 */
function toSettingsView(row: Channel): JsonObject {
  if (!isJsonObject(row.settings)) return {};
  const secretFields = secretSettingsOf(settingsSchemaOf(row.type));
  return Object.fromEntries(
    Object.entries(row.settings).map(([field, value]) => [
      field,
      secretFields.includes(field) ? toMaskedSecret(isSealedSetting(value) ? value.tail : '') : value,
    ]),
  );
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
