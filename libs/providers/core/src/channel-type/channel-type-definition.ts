import type { ChannelConnection } from '../adapter-context';
import type { AssetAdapter } from '../capability/asset-adapter';
import type { ImageAdapter } from '../capability/image-adapter';
import type { TaskAdapter } from '../capability/task-adapter';
import type { TextAdapter } from '../capability/text-adapter';
import type { VideoAdapter } from '../capability/video-adapter';
import type { CredentialsParse } from './channel-credentials.parse';
import { parseChannelSettings, type ChannelSettingsSchema } from './channel-settings.parse';
import type { ChannelType } from './channel-type';

/** What a channel type implements: only the capabilities its wire has. */
export interface ChannelCapabilities<Credentials = unknown, Settings = unknown> {
  text?: TextAdapter<Credentials, Settings>;
  image?: ImageAdapter<Credentials, Settings>;
  task?: TaskAdapter<Credentials, Settings>;
  asset?: AssetAdapter<Credentials, Settings>;
  /** Video family rules and content; a type with it also has `task`, which submits and polls video calls. */
  video?: VideoAdapter<Credentials, Settings>;
}

export type CapabilityName = keyof ChannelCapabilities;

export const CAPABILITY_NAMES: readonly CapabilityName[] = ['text', 'image', 'task', 'asset', 'video'];

/**
 * Everything the gateway knows of a channel type, declared once in the type's own folder and listed
 * once in the registry. Its credentials and settings types flow into its adapters' contexts, so an
 * adapter reads `context.channel.credentials.accessKey`, never a secret string it must split.
 */
export interface ChannelTypeDefinition<Credentials = unknown, Settings = unknown> {
  readonly type: ChannelType;
  /**
   * Parses a channel's decrypted secret (core has parsers for the common forms). Runs when a channel
   * is created or changed (a failure is the operator's 400) and when a process loads the channel.
   */
  parseCredentials(secret: string): CredentialsParse<Credentials>;
  /** The per-channel settings the type takes; NoChannelSettings when it takes none. */
  readonly settings: ChannelSettingsSchema<Settings>;
  readonly capabilities: ChannelCapabilities<Credentials, Settings>;
}

/** Identity at run time; lets the compiler infer the credentials and settings types from the parts. */
export function defineChannelType<Credentials, Settings>(
  definition: ChannelTypeDefinition<Credentials, Settings>,
): ChannelTypeDefinition<Credentials, Settings> {
  return definition;
}

/** A channel row's connection fields, the secret already decrypted. */
export interface ChannelConnectionFields {
  baseUrl: string;
  secret: string;
  /** The row's `settings` column as stored. */
  settings: unknown;
}

/** Why a row does not fit its type: the field at fault and a message that never contains the secret. */
export interface ChannelConnectionProblem {
  field: 'secret' | 'settings';
  message: string;
}

export type ChannelConnectionParse =
  { ok: true; connection: ChannelConnection } | ({ ok: false } & ChannelConnectionProblem);

/** Parses a row's secret and settings with its type's definition: the connection its adapters receive. */
export function parseChannelConnection(
  definition: ChannelTypeDefinition,
  fields: ChannelConnectionFields,
): ChannelConnectionParse {
  const credentials = definition.parseCredentials(fields.secret);
  if (!credentials.ok)
    return { ok: false, field: 'secret', message: `secret must be ${credentials.expected}` };
  const settings = parseChannelSettings(definition.settings, fields.settings);
  if (!settings.ok) return { ok: false, field: 'settings', message: settings.problem };
  return {
    ok: true,
    connection: {
      baseUrl: fields.baseUrl,
      credentials: credentials.credentials,
      settings: settings.settings,
    },
  };
}
