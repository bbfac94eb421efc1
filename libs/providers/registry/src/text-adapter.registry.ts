import { compatTextAdapter } from '@gateway/providers-compat';
import { isChannelType, type ChannelType, type TextAdapter } from '@gateway/providers-core';
import { kappaTextAdapter } from '@gateway/providers-kappa';

export interface TextAdapterRegistration {
  /** A channel type key; typed loosely so the boot check, not only the compiler, guards it. */
  type: string;
  adapter: TextAdapter;
}

/** Every channel type that serves text, and its adapter. Adding a text channel type is one line here. */
export const TEXT_ADAPTER_REGISTRATIONS: readonly TextAdapterRegistration[] = [
  { type: 'kappa', adapter: kappaTextAdapter },
  { type: 'compat', adapter: compatTextAdapter },
];

/** Indexes registrations by channel type; throws on an unknown type or a type registered twice. */
export function indexTextAdapters(
  registrations: readonly TextAdapterRegistration[],
): ReadonlyMap<ChannelType, TextAdapter> {
  const adapters = new Map<ChannelType, TextAdapter>();
  const problems: string[] = [];
  for (const { type, adapter } of registrations) {
    if (!isChannelType(type)) problems.push(`'${type}' is not a known channel type`);
    else if (adapters.has(type)) problems.push(`'${type}' is registered twice`);
    else adapters.set(type, adapter);
  }
  if (problems.length > 0) throw new Error(`text adapter registry is invalid: ${problems.join('; ')}`);
  return adapters;
}
