import type { ChannelType, TextAdapter } from '@gateway/providers-core';
import { indexTextAdapters, TEXT_ADAPTER_REGISTRATIONS } from './text-adapter.registry';

const TEXT_ADAPTERS = indexTextAdapters(TEXT_ADAPTER_REGISTRATIONS);

/** The adapter serving text on a channel type; undefined when that type has no text capability. */
export function getTextAdapter(type: ChannelType): TextAdapter | undefined {
  return TEXT_ADAPTERS.get(type);
}

export function textChannelTypes(): ChannelType[] {
  return [...TEXT_ADAPTERS.keys()];
}

/** Boot check: every registered key is a known channel type and none is registered twice. */
export function assertRegistryComplete(): void {
  indexTextAdapters(TEXT_ADAPTER_REGISTRATIONS);
}
