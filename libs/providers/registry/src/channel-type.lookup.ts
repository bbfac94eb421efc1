import type {
  AssetAdapter,
  ChannelType,
  ChannelTypeDefinition,
  ImageAdapter,
  TaskAdapter,
  TextAdapter,
  VideoAdapter,
} from '@gateway/providers-core';
import { indexChannelTypeDefinitions } from './channel-type-definitions.check';
import { CHANNEL_TYPE_DEFINITIONS } from './channel-type.registry';

/** Checked when the first module of the process imports the registry: a bad registry stops the boot. */
const DEFINITIONS = indexChannelTypeDefinitions(CHANNEL_TYPE_DEFINITIONS);

/** A type's definition; undefined for an unknown type and for a known type without one yet. */
export function channelTypeDefinition(type: string): ChannelTypeDefinition | undefined {
  return DEFINITIONS.get(type as ChannelType);
}

/** The adapter serving text on a channel type; undefined when that type has no text capability. */
export function textAdapterFor(type: string): TextAdapter | undefined {
  return DEFINITIONS.get(type as ChannelType)?.capabilities.text;
}

export function imageAdapterFor(type: string): ImageAdapter | undefined {
  return DEFINITIONS.get(type as ChannelType)?.capabilities.image;
}

export function taskAdapterFor(type: string): TaskAdapter | undefined {
  return DEFINITIONS.get(type as ChannelType)?.capabilities.task;
}

/** The task adapters by channel type, for a task worker's step processor. */
export function taskAdaptersByType(): ReadonlyMap<ChannelType, TaskAdapter> {
  const adapters = new Map<ChannelType, TaskAdapter>();
  for (const [type, { capabilities }] of DEFINITIONS) {
    if (capabilities.task) adapters.set(type, capabilities.task);
  }
  return adapters;
}

export function videoAdapterFor(type: string): VideoAdapter | undefined {
  return DEFINITIONS.get(type as ChannelType)?.capabilities.video;
}

/** The asset control plane of a channel type; undefined when that type has none. */
export function assetAdapterFor(type: string): AssetAdapter | undefined {
  return DEFINITIONS.get(type as ChannelType)?.capabilities.asset;
}

/** Whether some channel type's video rules know `model` by that very name (offered by a channel or not). */
export function isVideoFamilyModel(model: string): boolean {
  for (const { capabilities } of DEFINITIONS.values()) {
    if (capabilities.video?.servesVideoModel(model)) return true;
  }
  return false;
}
